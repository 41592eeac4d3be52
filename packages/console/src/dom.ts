/** A child `h` accepts: nodes, text, and nothing (`null`, `undefined`, `false` are skipped). */
export type Child = Node | string | number | null | undefined | false;

/**
 * Creates an element: `on*` props become listeners, `true` becomes an empty attribute, `false`/`undefined` are
 * skipped, everything else is an attribute. Text is always set as text, never parsed as HTML.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, unknown> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false || value === null) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value as EventListener);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Appends children (skipping empty ones). */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces every child of `parent`. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A labelled input: the label wraps it, so it is named for assistive technology. */
export function field(label: string, props: Record<string, unknown>): HTMLLabelElement {
  return h('label', {}, label, h('input', props));
}

/** A table with a header row (`th scope=col`) and the given body rows. */
export function table(caption: string, headers: readonly string[], rows: readonly (readonly Child[])[]): HTMLTableElement {
  return h(
    'table',
    {},
    h('caption', { class: 'muted' }, caption),
    h('thead', {}, h('tr', {}, ...headers.map((name) => h('th', { scope: 'col' }, name)))),
    h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell))))),
  );
}
