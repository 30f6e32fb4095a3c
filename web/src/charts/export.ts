// Downloads of a chart: its SVG as drawn, a PNG rendered from that SVG, and its data as CSV.
// Everything happens in the page; nothing leaves the machine.

/** A stand-alone SVG document of the chart (styles are attributes, so it renders anywhere). */
export function serializeSvg(svg: SVGSVGElement, title: string): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('font-family', 'DejaVu Sans, Arial, sans-serif');
  const vb = svg.viewBox.baseVal;
  if (vb && vb.width > 0) {
    clone.setAttribute('width', String(vb.width));
    clone.setAttribute('height', String(vb.height));
  }
  const bg = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  bg.setAttribute('x', String(vb?.x ?? 0));
  bg.setAttribute('y', String(vb?.y ?? 0));
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', '#ffffff');
  clone.insertBefore(bg, clone.firstChild);
  const t = document.createElementNS('http://www.w3.org/2000/svg', 'title');
  t.textContent = title;
  clone.insertBefore(t, clone.firstChild);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}\n`;
}

/** A file-name-safe slug: "Fig 6(a): max throughput" → "fig-6a-max-throughput". */
export function fileSlug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80) || 'chart';
}

export function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadSvg(svg: SVGSVGElement, title: string): void {
  download(`${fileSlug(title)}.svg`, new Blob([serializeSvg(svg, title)], { type: 'image/svg+xml' }));
}

/** Renders the SVG at `scale`× into a canvas and downloads it as PNG. */
export async function downloadPng(svg: SVGSVGElement, title: string, scale = 2): Promise<void> {
  const text = serializeSvg(svg, title);
  const vb = svg.viewBox.baseVal;
  const width = Math.round((vb?.width || svg.clientWidth) * scale);
  const height = Math.round((vb?.height || svg.clientHeight) * scale);
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error('the browser could not render the chart as an image'));
      img.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas in this browser');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, width, height);
    ctx.drawImage(img, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) throw new Error('the browser could not encode the PNG');
    download(`${fileSlug(title)}.png`, blob);
  } finally {
    URL.revokeObjectURL(url);
  }
}

export function downloadCsv(csv: string, title: string): void {
  download(`${fileSlug(title)}.csv`, new Blob([csv], { type: 'text/csv;charset=utf-8' }));
}
