/**
 * Two lines of advice per class for the PDF report (Spanish first, English second).
 * General good practice only: the disease pages hold the details and references, and a
 * local agronomist should confirm a diagnosis before any treatment.
 */
import type { ClassId } from '@diagrodl/contracts/classes';

export interface Advice {
  es: [string, string];
  en: [string, string];
}

export const ADVICE: Readonly<Record<ClassId, Advice>> = {
  bacterial_spot: {
    es: [
      'Retire y destruya las hojas con manchas; evite el riego por aspersión y trabajar con follaje mojado.',
      'Use semilla y plántula sanas, rote cultivos y considere productos a base de cobre según la recomendación local.',
    ],
    en: [
      'Remove and destroy spotted leaves; avoid overhead watering and working among wet foliage.',
      'Use healthy seed and transplants, rotate crops and consider copper-based products as locally advised.',
    ],
  },
  early_blight: {
    es: [
      'Elimine las hojas bajas afectadas y los restos de cosecha; acolche el suelo para evitar salpicaduras.',
      'Rote cultivos (2-3 años sin solanáceas) y aplique fungicidas protectores cuando el clima sea favorable.',
    ],
    en: [
      'Remove affected lower leaves and crop debris; mulch the soil to prevent splashing.',
      'Rotate crops (2-3 years without solanaceous plants) and apply protective fungicides in favourable weather.',
    ],
  },
  late_blight: {
    es: [
      'Actúe de inmediato: arranque y destruya las plantas afectadas, no las composte.',
      'Vigile el clima fresco y húmedo, aplique fungicidas sistémicos recomendados y use variedades resistentes.',
    ],
    en: [
      'Act at once: pull up and destroy affected plants; do not compost them.',
      'Watch for cool, wet weather, apply recommended systemic fungicides and grow resistant varieties.',
    ],
  },
  leaf_mold: {
    es: [
      'Reduzca la humedad relativa (por debajo del 85 %): ventile el invernadero y evite mojar el follaje.',
      'Retire las hojas afectadas, espacie las plantas y prefiera variedades resistentes.',
    ],
    en: [
      'Lower the relative humidity (below 85 %): ventilate the greenhouse and keep foliage dry.',
      'Remove affected leaves, space plants out and prefer resistant varieties.',
    ],
  },
  septoria_leaf_spot: {
    es: [
      'Retire las hojas inferiores con manchas y elimine malezas solanáceas cercanas.',
      'Evite el riego por aspersión, rote cultivos y aplique fungicidas protectores si la enfermedad avanza.',
    ],
    en: [
      'Remove spotted lower leaves and nearby solanaceous weeds.',
      'Avoid overhead watering, rotate crops and apply protective fungicides if the disease spreads.',
    ],
  },
  spider_mites: {
    es: [
      'Revise el envés de las hojas con lupa; riegue bien: el estrés hídrico y el polvo favorecen a los ácaros.',
      'Favorezca enemigos naturales (ácaros depredadores) y use acaricidas selectivos solo si es necesario.',
    ],
    en: [
      'Check leaf undersides with a hand lens; water well: drought stress and dust favour mites.',
      'Encourage natural enemies (predatory mites) and use selective miticides only when needed.',
    ],
  },
  target_spot: {
    es: [
      'Retire los restos de cultivo infectados y mejore la ventilación entre plantas.',
      'Rote cultivos y aplique fungicidas recomendados (p. ej. azoxistrobina) con alta humedad y 25-30 °C.',
    ],
    en: [
      'Remove infected crop debris and improve air flow between plants.',
      'Rotate crops and apply recommended fungicides (e.g. azoxystrobin) in high humidity at 25-30 °C.',
    ],
  },
  yellow_leaf_curl_virus: {
    es: [
      'Arranque las plantas con síntomas: el virus no se cura y la mosca blanca lo transmite.',
      'Controle la mosca blanca (mallas, trampas amarillas) y use variedades tolerantes al TYLCV.',
    ],
    en: [
      'Pull out plants with symptoms: the virus cannot be cured and whiteflies spread it.',
      'Control whiteflies (insect nets, yellow traps) and grow TYLCV-tolerant varieties.',
    ],
  },
  mosaic_virus: {
    es: [
      'Retire las plantas afectadas; lave manos y desinfecte herramientas: el virus se transmite al manipular.',
      'Use semilla certificada y variedades resistentes; no fume ni manipule tabaco cerca del cultivo.',
    ],
    en: [
      'Remove affected plants; wash hands and disinfect tools: the virus spreads by handling.',
      'Use certified seed and resistant varieties; do not smoke or handle tobacco near the crop.',
    ],
  },
  healthy: {
    es: [
      'La hoja parece sana: mantenga la vigilancia semanal del cultivo.',
      'Conserve buenas prácticas: riego al pie, ventilación y retiro de restos vegetales.',
    ],
    en: [
      'The leaf looks healthy: keep checking the crop every week.',
      'Keep good practice: water at the base, ventilate and remove plant debris.',
    ],
  },
};

/** Advice for a row that was not recognised with confidence. */
export const NOT_RECOGNISED_ADVICE: Advice = {
  es: [
    'Tome otra foto de cerca, que la hoja ocupe casi toda la foto, de frente o por el envés, enfocada, con buena luz y sin sombras, o recórtela a la hoja al subirla.',
    'Si la duda persiste, consulte a un técnico agrónomo de su zona.',
  ],
  en: [
    'Take another photo close up, the leaf filling most of it, front or back, in focus, in good light and without shadows, or crop it to the leaf when you upload it.',
    'If in doubt, ask a local agronomist.',
  ],
};
