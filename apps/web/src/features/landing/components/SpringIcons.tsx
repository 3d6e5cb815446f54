import { type ReactNode, useEffect, useRef } from 'react';
import { Link } from 'react-router';

export interface SpringIcon {
  to: string;
  label: string;
  icon: ReactNode;
}

const STIFFNESS = 0.08;
const DAMPING = 0.8;
const REACH = 0.12; // share of the pointer's offset each icon follows
const MAX_SHIFT = 24; // px

function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
  );
}

/**
 * Icons that follow the mouse with a spring: each is pulled toward a point a little
 * in the pointer's direction and overshoots gently. Still when the user prefers reduced motion.
 */
export function SpringIcons({ icons, label }: { icons: SpringIcon[]; label: string }) {
  const container = useRef<HTMLUListElement>(null);
  const items = useRef<(HTMLLIElement | null)[]>([]);

  useEffect(() => {
    const root = container.current;
    if (!root || prefersReducedMotion()) return;
    const state = icons.map(() => ({ x: 0, y: 0, vx: 0, vy: 0, tx: 0, ty: 0 }));
    let frame = 0;
    let running = false;

    const step = () => {
      let moving = false;
      state.forEach((s, i) => {
        s.vx = (s.vx + (s.tx - s.x) * STIFFNESS) * DAMPING;
        s.vy = (s.vy + (s.ty - s.y) * STIFFNESS) * DAMPING;
        s.x += s.vx;
        s.y += s.vy;
        if (Math.abs(s.vx) + Math.abs(s.vy) + Math.abs(s.tx - s.x) + Math.abs(s.ty - s.y) > 0.05)
          moving = true;
        const el = items.current[i];
        if (el) el.style.transform = `translate(${s.x.toFixed(2)}px, ${s.y.toFixed(2)}px)`;
      });
      if (moving) frame = requestAnimationFrame(step);
      else running = false;
    };
    const kick = () => {
      if (!running) {
        running = true;
        frame = requestAnimationFrame(step);
      }
    };
    const clamp = (v: number) => Math.max(-MAX_SHIFT, Math.min(MAX_SHIFT, v));
    const onMove = (e: PointerEvent) => {
      state.forEach((s, i) => {
        const el = items.current[i];
        if (!el) return;
        const r = el.getBoundingClientRect();
        s.tx = clamp((e.clientX - (r.left + r.width / 2 - s.x)) * REACH);
        s.ty = clamp((e.clientY - (r.top + r.height / 2 - s.y)) * REACH);
      });
      kick();
    };
    const onLeave = () => {
      state.forEach((s) => {
        s.tx = 0;
        s.ty = 0;
      });
      kick();
    };
    root.addEventListener('pointermove', onMove);
    root.addEventListener('pointerleave', onLeave);
    return () => {
      cancelAnimationFrame(frame);
      root.removeEventListener('pointermove', onMove);
      root.removeEventListener('pointerleave', onLeave);
    };
  }, [icons]);

  return (
    <ul ref={container} className="spring-icons list-unstyled" aria-label={label}>
      {icons.map((icon, i) => (
        <li
          key={icon.to}
          ref={(el) => {
            items.current[i] = el;
          }}
          className="spring-icon"
        >
          <Link to={icon.to} className="spring-icon-link">
            <span className="spring-icon-glyph">{icon.icon}</span>
            <span className="spring-icon-label">{icon.label}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
