import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Carousel, type CarouselLabels } from './Carousel.tsx';

const slides = Array.from({ length: 10 }, (_, i) => ({
  src: `/Disease/SpiderMites/IMG${i + 1}.jpg`,
  alt: `Hoja ${i + 1}`,
  width: 256,
  height: 256,
}));

const labels: CarouselLabels = {
  carousel: 'carrusel',
  slide: 'diapositiva',
  previous: 'Imagen anterior',
  next: 'Imagen siguiente',
  dots: 'Elegir una imagen',
  goTo: (n, total) => `Ver la imagen ${n} de ${total}`,
  position: (n, total) => `${n} de ${total}`,
  pause: 'Detener',
  play: 'Reanudar',
};

function currentLabel(): string | null {
  return (
    document.querySelector('.dg-carousel-slide.is-current')?.getAttribute('aria-label') ?? null
  );
}

function mockReducedMotion(reduced: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: reduced && query.includes('reduce'),
      media: query,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    })),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The motion preference the page sees, and a recorded Web Animations API (jsdom has none). */
function stubAnimation({ reducedMotion }: { reducedMotion: boolean }) {
  mockReducedMotion(reducedMotion);
  const animate = vi.fn(() => ({ cancel: vi.fn(), onfinish: null }));
  Object.defineProperty(HTMLElement.prototype, 'animate', { configurable: true, value: animate });
  return animate;
}

describe('Carousel', () => {
  it('is an accessible carousel whose slides are labelled "n de 10"', () => {
    render(<Carousel slides={slides} label="Ejemplo de imágenes" labels={labels} />);
    const region = screen.getByRole('region', { name: 'Ejemplo de imágenes' });
    expect(region).toHaveAttribute('aria-roledescription', 'carrusel');
    const groups = region.querySelectorAll('[aria-roledescription="diapositiva"]');
    expect(groups).toHaveLength(10);
    expect(groups[0]).toHaveAttribute('aria-label', '1 de 10');
    expect(groups[9]).toHaveAttribute('aria-label', '10 de 10');
    const imgs = region.querySelectorAll('img');
    expect(imgs[0]).toHaveAttribute('width', '256');
    expect(imgs[0]).toHaveAttribute('height', '256');
    expect(imgs[3]).toHaveAttribute('loading', 'lazy');
    expect(imgs[3]).toHaveAttribute('alt', 'Hoja 4');
    expect(currentLabel()).toBe('1 de 10');
  });

  it('wraps around at both ends with the arrows', async () => {
    const user = userEvent.setup();
    render(<Carousel slides={slides} label="Galería" labels={labels} />);
    await user.click(screen.getByRole('button', { name: 'Imagen anterior' }));
    expect(currentLabel()).toBe('10 de 10');
    await user.click(screen.getByRole('button', { name: 'Imagen siguiente' }));
    expect(currentLabel()).toBe('1 de 10');
    await user.click(screen.getByRole('button', { name: 'Imagen siguiente' }));
    expect(currentLabel()).toBe('2 de 10');
  });

  it('jumps to a slide with its dot and marks the dot as current', async () => {
    const user = userEvent.setup();
    render(<Carousel slides={slides} label="Galería" labels={labels} />);
    const dots = within(screen.getByRole('group', { name: 'Elegir una imagen' })).getAllByRole(
      'button',
    );
    expect(dots).toHaveLength(10);
    await user.click(screen.getByRole('button', { name: 'Ver la imagen 7 de 10' }));
    expect(currentLabel()).toBe('7 de 10');
    expect(screen.getByRole('button', { name: 'Ver la imagen 7 de 10' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Ver la imagen 1 de 10' })).not.toHaveAttribute(
      'aria-current',
    );
  });

  it('moves with the keyboard arrows', () => {
    render(<Carousel slides={slides} label="Galería" labels={labels} />);
    const region = screen.getByRole('region', { name: 'Galería' });
    fireEvent.keyDown(region, { key: 'ArrowLeft' });
    expect(currentLabel()).toBe('10 de 10');
    fireEvent.keyDown(region, { key: 'ArrowRight' });
    fireEvent.keyDown(region, { key: 'ArrowRight' });
    expect(currentLabel()).toBe('2 de 10');
  });

  it('animates each change for 1 s (Web Animations API)', async () => {
    const animate = stubAnimation({ reducedMotion: false });
    try {
      const user = userEvent.setup();
      render(<Carousel slides={slides} label="Galería" labels={labels} />);
      await user.click(screen.getByRole('button', { name: 'Imagen siguiente' }));
      expect(animate).toHaveBeenCalledTimes(2);
      const calls = animate.mock.calls as unknown as [Keyframe[], KeyframeAnimationOptions][];
      expect(calls[0]![1].duration).toBe(1000);
      expect(calls[0]![0][0]!.transform).toBe('translateX(100%)');
    } finally {
      delete (HTMLElement.prototype as { animate?: unknown }).animate;
    }
  });

  it('does not animate when the user prefers reduced motion', async () => {
    const animate = stubAnimation({ reducedMotion: true });
    try {
      const user = userEvent.setup();
      render(<Carousel slides={slides} label="Galería" labels={labels} autoplay />);
      await user.click(screen.getByRole('button', { name: 'Imagen siguiente' }));
      expect(currentLabel()).toBe('2 de 10');
      expect(animate).not.toHaveBeenCalled();
      // no autoplay either, hence no pause button
      expect(screen.queryByRole('button', { name: 'Detener' })).toBeNull();
    } finally {
      delete (HTMLElement.prototype as { animate?: unknown }).animate;
    }
  });

  it('autoplays, pauses on hover and focus, and has a pause button', () => {
    vi.useFakeTimers();
    mockReducedMotion(false);
    render(<Carousel slides={slides} label="Galería" labels={labels} autoplay interval={3000} />);
    const region = screen.getByRole('region', { name: 'Galería' });
    act(() => vi.advanceTimersByTime(3000));
    expect(currentLabel()).toBe('2 de 10');

    fireEvent.mouseEnter(region);
    act(() => vi.advanceTimersByTime(9000));
    expect(currentLabel()).toBe('2 de 10');
    fireEvent.mouseLeave(region);
    act(() => vi.advanceTimersByTime(3000));
    expect(currentLabel()).toBe('3 de 10');

    const next = screen.getByRole('button', { name: 'Imagen siguiente' });
    fireEvent.focus(next);
    act(() => vi.advanceTimersByTime(9000));
    expect(currentLabel()).toBe('3 de 10');
    fireEvent.blur(next, { relatedTarget: document.body });
    act(() => vi.advanceTimersByTime(3000));
    expect(currentLabel()).toBe('4 de 10');

    fireEvent.click(screen.getByRole('button', { name: 'Detener' }));
    fireEvent.blur(screen.getByRole('button', { name: 'Reanudar' }), {
      relatedTarget: document.body,
    });
    act(() => vi.advanceTimersByTime(9000));
    expect(currentLabel()).toBe('4 de 10');
    expect(screen.getByRole('button', { name: 'Reanudar' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('announces changes politely only when not rotating', () => {
    render(<Carousel slides={slides} label="Galería" labels={labels} />);
    expect(document.querySelector('.dg-carousel-viewport')).toHaveAttribute('aria-live', 'polite');
  });
});
