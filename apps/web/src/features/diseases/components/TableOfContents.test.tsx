import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TableOfContents } from './TableOfContents.tsx';

type Callback = (entries: Partial<IntersectionObserverEntry>[]) => void;
let observers: { callback: Callback; targets: Element[]; options?: IntersectionObserverInit }[] =
  [];

class FakeObserver {
  targets: Element[] = [];
  constructor(
    public callback: Callback,
    public options?: IntersectionObserverInit,
  ) {
    observers.push(this);
  }
  observe(el: Element) {
    this.targets.push(el);
  }
  unobserve() {}
  disconnect() {
    this.targets = [];
  }
  takeRecords() {
    return [];
  }
}

function Page() {
  const ref = useRef<HTMLElement>(null);
  return (
    <>
      <TableOfContents container={ref} label="Contenido de esta página" title="En esta página" />
      <article ref={ref}>
        <h1>Mancha objetivo</h1>
        <h2 id="scientific-name">Nombre científico</h2>
        <p>…</p>
        <h2 id="common-name">Nombre común</h2>
        <h3 id="not-listed">Subtítulo</h3>
        <h2 id="references">Referencias</h2>
      </article>
    </>
  );
}

function intersect(id: string, isIntersecting: boolean) {
  const observer = observers[observers.length - 1]!;
  const target = observer.targets.find((t) => t.id === id)!;
  act(() => observer.callback([{ target, isIntersecting }]));
}

beforeEach(() => {
  observers = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The motion preference the page sees, and a recorded scrollIntoView (jsdom has none). */
function stubScrolling({ reducedMotion }: { reducedMotion: boolean }) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => ({
      matches: reducedMotion,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    })),
  );
  const scrollIntoView = vi.fn();
  Object.defineProperty(HTMLElement.prototype, 'scrollIntoView', {
    configurable: true,
    value: scrollIntoView,
  });
  return scrollIntoView;
}

describe('TableOfContents', () => {
  it('lists the level-2 headings of the container in order', () => {
    render(<Page />);
    const nav = screen.getByRole('navigation', { name: 'Contenido de esta página' });
    const links = Array.from(nav.querySelectorAll('a'));
    expect(links.map((a) => a.textContent)).toEqual([
      'Nombre científico',
      'Nombre común',
      'Referencias',
    ]);
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      '#scientific-name',
      '#common-name',
      '#references',
    ]);
    expect(screen.getByText('En esta página')).toBeInTheDocument();
  });

  it('observes every heading and highlights the one in view', () => {
    render(<Page />);
    const observer = observers[observers.length - 1]!;
    expect(observer.targets.map((t) => t.id)).toEqual([
      'scientific-name',
      'common-name',
      'references',
    ]);
    expect(screen.getByRole('link', { name: 'Nombre científico' })).toHaveAttribute(
      'aria-current',
      'location',
    );
    intersect('scientific-name', false);
    intersect('common-name', true);
    expect(screen.getByRole('link', { name: 'Nombre común' })).toHaveAttribute(
      'aria-current',
      'location',
    );
    expect(screen.getByRole('link', { name: 'Nombre científico' })).not.toHaveAttribute(
      'aria-current',
    );
    intersect('references', true);
    // the first heading in the band wins
    expect(screen.getByRole('link', { name: 'Nombre común' })).toHaveAttribute(
      'aria-current',
      'location',
    );
    intersect('common-name', false);
    expect(screen.getByRole('link', { name: 'Referencias' })).toHaveAttribute(
      'aria-current',
      'location',
    );
  });

  it('keeps the section we are inside when no heading is in the band', () => {
    render(<Page />);
    const common = document.getElementById('common-name')!;
    const sci = document.getElementById('scientific-name')!;
    vi.spyOn(sci, 'getBoundingClientRect').mockReturnValue({ top: -900 } as DOMRect);
    vi.spyOn(common, 'getBoundingClientRect').mockReturnValue({ top: -200 } as DOMRect);
    intersect('common-name', false);
    expect(screen.getByRole('link', { name: 'Nombre común' })).toHaveAttribute(
      'aria-current',
      'location',
    );
  });

  it('scrolls smoothly to the heading, focuses it and updates the address', async () => {
    const scrollIntoView = stubScrolling({ reducedMotion: false });
    try {
      const user = userEvent.setup();
      render(<Page />);
      await user.click(screen.getByRole('link', { name: 'Referencias' }));
      expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'smooth', block: 'start' });
      expect(document.activeElement).toBe(document.getElementById('references'));
      expect(window.location.hash).toBe('#references');
      expect(screen.getByRole('link', { name: 'Referencias' })).toHaveAttribute(
        'aria-current',
        'location',
      );
      // the observer does not move the highlight while the smooth scroll runs
      intersect('scientific-name', true);
      expect(screen.getByRole('link', { name: 'Referencias' })).toHaveAttribute(
        'aria-current',
        'location',
      );
    } finally {
      delete (HTMLElement.prototype as { scrollIntoView?: unknown }).scrollIntoView;
    }
  });

  it('jumps without animation when the user prefers reduced motion', async () => {
    const scrollIntoView = stubScrolling({ reducedMotion: true });
    try {
      const user = userEvent.setup();
      render(<Page />);
      await user.click(screen.getByRole('link', { name: 'Nombre común' }));
      expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'auto', block: 'start' });
    } finally {
      delete (HTMLElement.prototype as { scrollIntoView?: unknown }).scrollIntoView;
    }
  });
});
