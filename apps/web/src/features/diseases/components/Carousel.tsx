import {
  type FocusEvent,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { usePrefersReducedMotion } from '@/components/usePrefersReducedMotion.ts';

export interface CarouselSlide {
  src: string;
  alt: string;
  width: number;
  height: number;
}

/** Every text the carousel shows or announces (the caller passes them translated). */
export interface CarouselLabels {
  /** aria-roledescription of the carousel (e.g. 'carrusel'). */
  carousel: string;
  /** aria-roledescription of each slide (e.g. 'diapositiva'). */
  slide: string;
  previous: string;
  next: string;
  /** Label of the group of dots. */
  dots: string;
  /** Accessible name of the dot that shows slide n. */
  goTo: (n: number, total: number) => string;
  /** Slide label and visible counter: 'n de total'. */
  position: (n: number, total: number) => string;
  pause: string;
  play: string;
}

export interface CarouselProps {
  slides: readonly CarouselSlide[];
  /** Accessible name of the carousel. */
  label: string;
  labels: CarouselLabels;
  /** Advance by itself every `interval` ms (paused on hover, focus and with reduced motion). */
  autoplay?: boolean;
  interval?: number;
  /** Slide transition length in ms (the specification asks for 1 s). */
  transitionMs?: number;
  className?: string;
}

interface Transition {
  from: number;
  to: number;
  /** +1: the new slide comes in from the right; -1: from the left. */
  dir: 1 | -1;
  done: boolean;
}

/**
 * An image carousel: previous/next arrows that wrap around at both ends, clickable dots,
 * keyboard arrows, a 1 s slide transition (none with prefers-reduced-motion), optional
 * autoplay that pauses on hover or focus and has a pause button (WCAG 2.2.2).
 * Follows the WAI-ARIA APG carousel pattern (aria-roledescription, slide labels 'n de N').
 */
export function Carousel({
  slides,
  label,
  labels,
  autoplay = false,
  interval = 6000,
  transitionMs = 1000,
  className = '',
}: CarouselProps) {
  const total = slides.length;
  const viewportId = useId();
  const [index, setIndex] = useState(0);
  const indexRef = useRef(0);
  const [transition, setTransition] = useState<Transition | null>(null);
  const [paused, setPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const reduced = usePrefersReducedMotion();
  const slideRefs = useRef<(HTMLDivElement | null)[]>([]);

  const go = useCallback(
    (target: number, dir: 1 | -1) => {
      if (total === 0) return;
      const from = indexRef.current;
      const to = ((target % total) + total) % total;
      if (to === from) return;
      indexRef.current = to;
      setIndex(to);
      setTransition({ from, to, dir, done: false });
    },
    [total],
  );
  const next = useCallback(() => go(indexRef.current + 1, 1), [go]);
  const previous = useCallback(() => go(indexRef.current - 1, -1), [go]);

  // The slide animation: the new slide pushes the old one out (Web Animations API, so the
  // component needs no stylesheet). Reduced motion or no API: the change is instant.
  useEffect(() => {
    if (!transition || transition.done) return;
    const finish = () => setTransition((t) => (t === transition ? { ...t, done: true } : t));
    const incoming = slideRefs.current[transition.to];
    const outgoing = slideRefs.current[transition.from];
    if (reduced || !incoming?.animate || !outgoing?.animate) {
      finish();
      return;
    }
    const timing: KeyframeAnimationOptions = { duration: transitionMs, easing: 'ease-in-out' };
    const shift = `${transition.dir * 100}%`;
    const back = `${-transition.dir * 100}%`;
    const a = incoming.animate(
      [{ transform: `translateX(${shift})` }, { transform: 'translateX(0)' }],
      timing,
    );
    const b = outgoing.animate(
      [{ transform: 'translateX(0)' }, { transform: `translateX(${back})` }],
      timing,
    );
    b.onfinish = finish;
    return () => {
      a.cancel();
      b.cancel();
    };
  }, [transition, reduced, transitionMs]);

  const rotating = autoplay && !reduced && !paused && !hovered && !focused && total > 1;
  useEffect(() => {
    if (!rotating) return;
    const timer = window.setInterval(next, interval);
    return () => window.clearInterval(timer);
  }, [rotating, interval, next]);

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'ArrowRight') {
      e.preventDefault();
      next();
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      previous();
    }
  };
  const onBlur = (e: FocusEvent<HTMLElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
  };

  const leaving = transition && !transition.done ? transition.from : -1;
  const first = slides[0];
  const showPause = autoplay && !reduced && total > 1;

  return (
    <section
      className={`dg-carousel ${className}`.trim()}
      aria-roledescription={labels.carousel}
      aria-label={label}
      data-testid="carousel"
      data-rotating={rotating ? 'true' : 'false'}
      onKeyDown={onKeyDown}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={onBlur}
    >
      {showPause && (
        <div className="dg-carousel-controls d-flex justify-content-end mb-2">
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            aria-pressed={paused}
            onClick={() => setPaused((p) => !p)}
          >
            {paused ? labels.play : labels.pause}
          </button>
        </div>
      )}
      <div className="d-flex align-items-center gap-2">
        <Arrow dir="left" label={labels.previous} controls={viewportId} onClick={previous} />
        <div
          id={viewportId}
          className="dg-carousel-viewport flex-grow-1"
          aria-live={rotating ? 'off' : 'polite'}
          style={{
            position: 'relative',
            overflow: 'hidden',
            aspectRatio: first ? `${first.width} / ${first.height}` : undefined,
          }}
        >
          {slides.map((slide, i) => {
            const current = i === index;
            return (
              <div
                key={slide.src}
                ref={(el) => {
                  slideRefs.current[i] = el;
                }}
                role="group"
                aria-roledescription={labels.slide}
                aria-label={labels.position(i + 1, total)}
                aria-hidden={current ? undefined : true}
                className={`dg-carousel-slide${current ? ' is-current' : ''}`}
                data-index={i}
                style={{
                  position: 'absolute',
                  inset: 0,
                  visibility: current || i === leaving ? 'visible' : 'hidden',
                }}
              >
                <img
                  src={slide.src}
                  alt={slide.alt}
                  width={slide.width}
                  height={slide.height}
                  loading={i === 0 ? 'eager' : 'lazy'}
                  decoding="async"
                  style={{ display: 'block', width: '100%', height: '100%', objectFit: 'cover' }}
                />
              </div>
            );
          })}
        </div>
        <Arrow dir="right" label={labels.next} controls={viewportId} onClick={next} />
      </div>
      <div
        className="dg-carousel-dots d-flex flex-wrap justify-content-center mt-2"
        role="group"
        aria-label={labels.dots}
      >
        {slides.map((slide, i) => (
          <button
            key={slide.src}
            type="button"
            className={`dg-carousel-dot${i === index ? ' is-active' : ''}`}
            aria-label={labels.goTo(i + 1, total)}
            aria-current={i === index ? 'true' : undefined}
            aria-controls={viewportId}
            onClick={() => go(i, i > indexRef.current ? 1 : -1)}
            style={{
              width: 28,
              height: 28,
              padding: 0,
              border: 0,
              background: 'transparent',
              display: 'inline-flex',
              alignItems: 'center',
              justifyContent: 'center',
            }}
          >
            <span
              aria-hidden="true"
              style={{
                display: 'block',
                width: i === index ? 14 : 10,
                height: i === index ? 14 : 10,
                borderRadius: '50%',
                background: i === index ? '#1f6f3f' : '#6c757d',
              }}
            />
          </button>
        ))}
      </div>
      <p
        className="dg-carousel-status text-center small text-body-secondary mb-0"
        aria-hidden="true"
      >
        {labels.position(index + 1, total)}
      </p>
    </section>
  );
}

/** The previous (left) or next (right) button beside the slides. */
function Arrow({
  dir,
  label,
  controls,
  onClick,
}: {
  dir: 'left' | 'right';
  label: string;
  controls: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={`dg-carousel-arrow dg-carousel-${dir === 'left' ? 'prev' : 'next'} btn btn-success rounded-circle`}
      aria-label={label}
      aria-controls={controls}
      onClick={onClick}
    >
      <Chevron dir={dir} />
    </button>
  );
}

function Chevron({ dir }: { dir: 'left' | 'right' }) {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={dir === 'left' ? 'M12.5 4 6.5 10l6 6' : 'M7.5 4l6 6-6 6'} />
    </svg>
  );
}
