/** Line icons for the five tools (decorative: the link text names the tool). */
const common = {
  width: 64,
  height: 64,
  viewBox: '0 0 64 64',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 3,
  strokeLinecap: 'round' as const,
  strokeLinejoin: 'round' as const,
  'aria-hidden': true,
  focusable: false,
};

export function ConverterIcon() {
  return (
    <svg {...common}>
      <path d="M10 22h40l-9-9M54 42H14l9 9" />
      <text x="32" y="37" fontSize="11" textAnchor="middle" fill="currentColor" stroke="none">
        m³/h
      </text>
    </svg>
  );
}

export function LateralIcon() {
  return (
    <svg {...common}>
      <path d="M6 24h52" />
      {[14, 26, 38, 50].map((x) => (
        <g key={x}>
          <path d={`M${x} 24v6`} />
          <path d={`M${x} 36c-2 3-2 5 0 6 2-1 2-3 0-6z`} fill="currentColor" />
        </g>
      ))}
    </svg>
  );
}

export function SecondaryIcon() {
  return (
    <svg {...common}>
      <path d="M8 12v42M8 18h46M8 32h46M8 46h46" />
      <circle cx="8" cy="12" r="3" fill="currentColor" />
    </svg>
  );
}

export function PrincipalIcon() {
  return (
    <svg {...common}>
      <rect x="4" y="26" width="56" height="12" rx="6" />
      <path d="M18 26v12M34 26v12M50 26v12M4 18h10l4-6" />
    </svg>
  );
}

export function LeafAiIcon() {
  return (
    <svg {...common}>
      <path d="M10 50C12 26 28 12 52 10c-2 24-16 40-40 42z" />
      <path d="M12 50c10-12 20-20 32-28" />
      <circle cx="44" cy="44" r="8" />
      <path d="M50 50l8 8" />
    </svg>
  );
}
