// The world map of the wealth map (its own lazy chunk: d3-geo, topojson-client and world-atlas's
// countries-110m, ~110 KB of TopoJSON bundled with it, so the service worker caches it with the app
// and it works offline). Countries with assets are focusable buttons (Enter or Space selects them);
// the others are decoration. Countries too small for the 110 m file (Andorra, Monaco, Malta…) are
// drawn as a marker at their centre (smallCountries.ts). The table of the screen carries the same
// figures.
import { geoEqualEarth, geoPath } from "d3-geo";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import type { Feature, FeatureCollection, Geometry } from "geojson";
import countries110m from "world-atlas/countries-110m.json";
import { useMemo, type KeyboardEvent } from "react";
import { NAME_TO_ALPHA2, NUMERIC_TO_ALPHA2 } from "./countryCodes";
import { SMALL_COUNTRIES } from "./smallCountries";
import { NO_RATE_PATTERN, type CountryFill } from "./worldMapFill";
import styles from "./WealthMap.module.css";

export type { CountryFill };

const WIDTH = 960;
const HEIGHT = 500;

type Props = { name?: string };

function useShapes() {
  return useMemo(() => {
    const topology = countries110m as unknown as Topology<{ countries: GeometryCollection<Props> }>;
    const collection = feature(topology, topology.objects.countries) as FeatureCollection<Geometry, Props>;
    const projection = geoEqualEarth().fitSize([WIDTH, HEIGHT], { type: "Sphere" } as never);
    const path = geoPath(projection);
    const shapes = collection.features.map((f: Feature<Geometry, Props>) => ({
      code: (f.id !== undefined ? NUMERIC_TO_ALPHA2[String(f.id)] : undefined) ?? NAME_TO_ALPHA2[f.properties?.name ?? ""] ?? "",
      d: path(f) ?? "",
    }));
    // Countries without a shape on this map: a marker at their centre (smallCountries.ts).
    const drawn = new Set(shapes.map((s) => s.code));
    const points = new Map<string, [number, number]>();
    for (const [code, lon, lat] of SMALL_COUNTRIES) {
      const xy = projection([lon, lat]);
      if (!drawn.has(code) && xy) points.set(code, [xy[0], xy[1]]);
    }
    return { shapes, points };
  }, []);
}

function activate(onSelect: (code: string) => void, code: string) {
  return {
    role: "button",
    tabIndex: 0,
    onClick: () => onSelect(code),
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        onSelect(code);
      }
    },
  } as const;
}

export default function WorldMap({ fills, selected, onSelect, label }: { fills: ReadonlyMap<string, CountryFill>; selected: string | undefined; onSelect: (code: string) => void; label: string }) {
  const { shapes, points } = useShapes();
  const markers = [...fills.values()].filter((f) => points.has(f.code));
  return (
    <svg className={styles.map} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="group" aria-label={label} data-testid="world-map">
      <defs>
        {/* A country whose assets have no exchange rate: hatched grey (the legend's swatch too). */}
        <pattern id={NO_RATE_PATTERN} patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">
          <rect width="6" height="6" fill="#d1d5db" />
          <line x1="0" y1="0" x2="0" y2="6" stroke="#6b7280" strokeWidth="2" />
        </pattern>
      </defs>
      {shapes.map((s, i) => {
        const f = fills.get(s.code);
        if (!f)
          return <path key={`${s.code}-${i}`} d={s.d} className={styles.land} aria-hidden="true" data-country={s.code || undefined} />;
        return (
          <path
            key={`${s.code}-${i}`}
            d={s.d}
            fill={f.fill}
            className={`${styles.country} ${selected === s.code ? styles.selected : ""}`}
            aria-label={f.label}
            aria-pressed={selected === s.code}
            data-country={s.code}
            {...activate(onSelect, s.code)}
          >
            <title>{f.label}</title>
          </path>
        );
      })}
      {markers.map((f) => {
        const [x, y] = points.get(f.code)!;
        return (
          <circle
            key={f.code}
            cx={x}
            cy={y}
            r={6}
            fill={f.fill}
            className={`${styles.country} ${styles.marker} ${selected === f.code ? styles.selected : ""}`}
            aria-label={f.label}
            aria-pressed={selected === f.code}
            data-country={f.code}
            data-marker="true"
            {...activate(onSelect, f.code)}
          >
            <title>{f.label}</title>
          </circle>
        );
      })}
    </svg>
  );
}
