const SVG = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** A hand-drawn SVG bar chart of `bars` (label, value), described for assistive technology by `title`. */
export function barChart(title: string, bars: readonly { readonly label: string; readonly value: number; readonly text: string }[]): SVGSVGElement {
  const width = 720;
  const barHeight = 22;
  const labelWidth = 200;
  const height = Math.max(1, bars.length) * (barHeight + 6) + 10;
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, width: '100%', role: 'img', 'aria-label': title });
  chart.appendChild(svg('title', {}, title));
  const max = Math.max(0, ...bars.map((bar) => bar.value));
  bars.forEach((bar, index) => {
    const y = 5 + index * (barHeight + 6);
    const length = max === 0 ? 0 : ((width - labelWidth - 140) * bar.value) / max;
    chart.appendChild(svg('text', { x: 0, y: y + 15 }, bar.label.length > 30 ? `${bar.label.slice(0, 29)}…` : bar.label));
    chart.appendChild(svg('rect', { x: labelWidth, y, width: Math.max(length, 1), height: barHeight, fill: '#0b4f8a' }));
    chart.appendChild(svg('text', { x: labelWidth + length + 6, y: y + 15 }, bar.text));
  });
  return chart;
}
