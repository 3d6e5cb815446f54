/**
 * The words of the diagnosis report PDF, in Spanish and in English, and its colours
 * (report-pdf.ts draws the blocks and the summary table, report-cover.ts the cover).
 */
export const GREEN = '#2e7d32';
export const GREY = '#555555';
/** A refused photo's answer, the field-photo caution. */
export const AMBER = '#b26a00';

export const TEXT = {
  es: {
    title: 'Reporte de diagnóstico',
    subtitle: 'Identificación de enfermedades en hojas de tomate',
    user: 'Usuario',
    date: 'Fecha',
    model: 'Modelo',
    accuracy: 'exactitud en el conjunto de prueba',
    notMeasured: 'exactitud no medida (promedio de modelos)',
    images: 'Imágenes analizadas',
    accepted: 'Diagnósticos con confianza suficiente',
    disclaimer:
      'Resultado orientativo generado por un modelo de aprendizaje profundo entrenado con fotografías de laboratorio (PlantVillage). Confirme el diagnóstico con un técnico agrónomo antes de aplicar tratamientos.',
    photo: 'Fotografía',
    heatmap: 'Mapa de activación',
    diagnosis: 'Diagnóstico',
    probability: 'Probabilidad',
    top3: 'Tres clases más probables',
    advice: 'Recomendaciones',
    more: 'Más información',
    summary: 'Resumen',
    cls: 'Clase',
    count: 'Imágenes',
    total: 'Total',
    page: (i: number, n: number) => `Página ${i} de ${n}`,
    locale: 'es-MX',
    photos: 'Fotos',
    confidence: (v: string) => `${v} de confianza`,
    morePhotos: (n: number) =>
      `… y ${n === 1 ? 'una foto más' : `${n} fotos más`}: ver las páginas siguientes.`,
    lab: (acc: string) => `En fotos de laboratorio (conjunto de prueba): acierta en el ${acc}.`,
    labNotMeasured: 'En fotos de laboratorio: exactitud no medida (promedio de modelos).',
    field: (n: number, given: string, right: string) =>
      `En fotos reales de campo (${n} fotos que no vio al entrenar): da un diagnóstico en el ${given} de los casos y acierta en el ${right} de esas veces.`,
    fieldTop1: (n: number, top1: string) =>
      `En fotos reales de campo (${n} fotos que no vio al entrenar): su clase más probable acierta en el ${top1}.`,
    fieldNone:
      'No se midió en fotos reales de campo: sus cifras son de fotos de laboratorio, y en campo acertará menos.',
  },
  en: {
    title: 'Diagnosis report',
    subtitle: 'Tomato leaf disease identification',
    user: 'User',
    date: 'Date',
    model: 'Model',
    accuracy: 'accuracy on the test set',
    notMeasured: 'accuracy not measured (average of models)',
    images: 'Images analysed',
    accepted: 'Diagnoses with enough confidence',
    disclaimer:
      'Indicative result from a deep-learning model trained on laboratory photos (PlantVillage). Have an agronomist confirm the diagnosis before any treatment.',
    photo: 'Photo',
    heatmap: 'Activation map',
    diagnosis: 'Diagnosis',
    probability: 'Probability',
    top3: 'Three most likely classes',
    advice: 'Advice',
    more: 'More information',
    summary: 'Summary',
    cls: 'Class',
    count: 'Images',
    total: 'Total',
    page: (i: number, n: number) => `Page ${i} of ${n}`,
    locale: 'en-GB',
    photos: 'Photos',
    confidence: (v: string) => `${v} confidence`,
    morePhotos: (n: number) =>
      `… and ${n === 1 ? 'one more photo' : `${n} more photos`}: see the next pages.`,
    lab: (acc: string) => `On lab photos (test set): right ${acc} of the time.`,
    labNotMeasured: 'On lab photos: accuracy not measured (average of models).',
    field: (n: number, given: string, right: string) =>
      `On real field photos (${n} photos it never trained on): gives a diagnosis for ${given} of them and is right ${right} of those times.`,
    fieldTop1: (n: number, top1: string) =>
      `On real field photos (${n} photos it never trained on): its most probable class is right ${top1} of the time.`,
    fieldNone:
      'Not measured on real field photos: its figures are from lab photos, and it will be right less often in the field.',
  },
} as const;

export type ReportText = (typeof TEXT)[keyof typeof TEXT];
