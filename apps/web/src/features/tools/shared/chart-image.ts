/**
 * Turns an on-screen SVG chart into PNG bytes (SVG -> image -> canvas -> PNG) for the PDF
 * export. The charts draw with presentation attributes only, so the serialised SVG looks the same
 * outside the page's CSS.
 */
export async function svgToPng(
  svg: SVGSVGElement,
  scale = 2,
): Promise<{ png: Uint8Array; width: number; height: number } | null> {
  try {
    const box = svg.viewBox.baseVal;
    const width = box && box.width > 0 ? box.width : svg.clientWidth;
    const height = box && box.height > 0 ? box.height : svg.clientHeight;
    const clone = svg.cloneNode(true) as SVGSVGElement;
    clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    clone.setAttribute('width', String(width));
    clone.setAttribute('height', String(height));
    const text = new XMLSerializer().serializeToString(clone);
    const url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
    const image = new Image();
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error('chart image failed to load'));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    return blob ? { png: new Uint8Array(await blob.arrayBuffer()), width, height } : null;
  } catch {
    return null;
  }
}
