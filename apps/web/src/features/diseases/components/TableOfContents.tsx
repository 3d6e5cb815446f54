import { type MouseEvent, type RefObject, useEffect, useRef, useState } from 'react';

export interface TocItem {
  id: string;
  text: string;
}

export interface TableOfContentsProps {
  /** The element whose headings are listed. */
  container: RefObject<HTMLElement | null>;
  /** Accessible name of the navigation landmark. */
  label: string;
  /** Visible title above the list (optional). */
  title?: string;
  /** Headings to list (default: level-2 headings with an id). */
  selector?: string;
  /** Change it when the content changes so that the headings are read again. */
  refreshKey?: unknown;
  /** Called after a link was followed (e.g. to close a collapsible wrapper). */
  onNavigate?: (id: string) => void;
  className?: string;
}

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && !!window.matchMedia
    ? window.matchMedia('(prefers-reduced-motion: reduce)').matches
    : false;
}

/**
 * A table of contents built from the headings of `container`. Following a link scrolls
 * smoothly (instantly with reduced motion) and moves focus to the heading; the heading in
 * view is highlighted with aria-current, found with an IntersectionObserver: the first
 * heading in the top 40 % of the viewport, else the last heading above it.
 */
export function TableOfContents({
  container,
  label,
  title,
  selector = 'h2[id]',
  refreshKey,
  onNavigate,
  className = '',
}: TableOfContentsProps) {
  const [items, setItems] = useState<TocItem[]>([]);
  const [active, setActive] = useState<string | null>(null);
  // While a click-started smooth scroll runs, the observer must not move the highlight.
  const lockUntil = useRef(0);

  useEffect(() => {
    const root = container.current;
    if (!root) return;
    const found = Array.from(root.querySelectorAll<HTMLElement>(selector))
      .filter((h) => h.id)
      .map((h) => ({ id: h.id, text: (h.textContent ?? '').trim() }));
    setItems(found);
    setActive((current) =>
      current && found.some((f) => f.id === current) ? current : (found[0]?.id ?? null),
    );
  }, [container, selector, refreshKey]);

  useEffect(() => {
    const root = container.current;
    if (!root || items.length === 0 || typeof IntersectionObserver === 'undefined') return;
    const headings = items
      .map((item) => root.querySelector<HTMLElement>(`#${CSS.escape(item.id)}`))
      .filter((h): h is HTMLElement => h !== null);
    const inBand = new Map<string, boolean>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) inBand.set(entry.target.id, entry.isIntersecting);
        if (Date.now() < lockUntil.current) return;
        const firstInBand = headings.find((h) => inBand.get(h.id));
        if (firstInBand) {
          setActive(firstInBand.id);
          return;
        }
        const above = headings.filter((h) => h.getBoundingClientRect().top < 0);
        const last = above[above.length - 1];
        if (last) setActive(last.id);
        else if (headings[0]) setActive(headings[0].id);
      },
      { rootMargin: '0px 0px -60% 0px', threshold: [0, 1] },
    );
    for (const h of headings) observer.observe(h);
    return () => observer.disconnect();
  }, [container, items]);

  const follow = (e: MouseEvent<HTMLAnchorElement>, id: string) => {
    const target = container.current?.querySelector<HTMLElement>(`#${CSS.escape(id)}`);
    if (!target) return;
    e.preventDefault();
    setActive(id);
    const release = () => {
      lockUntil.current = 0;
    };
    lockUntil.current = Date.now() + 1500;
    window.addEventListener('scrollend', release, { once: true });
    window.setTimeout(release, 1500);
    target.scrollIntoView?.({
      behavior: prefersReducedMotion() ? 'auto' : 'smooth',
      block: 'start',
    });
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
    window.history.replaceState(window.history.state, '', `#${id}`);
    onNavigate?.(id);
  };

  if (items.length === 0) return null;
  return (
    <nav className={`toc ${className}`.trim()} aria-label={label} data-testid="toc">
      {title && <p className="toc-title">{title}</p>}
      <ol className="toc-list">
        {items.map((item) => (
          <li key={item.id}>
            <a
              href={`#${item.id}`}
              className={`toc-link${item.id === active ? ' active' : ''}`}
              aria-current={item.id === active ? 'location' : undefined}
              onClick={(e) => follow(e, item.id)}
            >
              {item.text}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
