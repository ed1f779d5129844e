// The world map of the wealth map (its own lazy chunk: d3-geo, topojson-client and world-atlas's
// countries-110m, ~110 KB of TopoJSON bundled with it, so the service worker caches it with the app
// and it works offline). Countries with assets are focusable buttons (Enter or Space selects them);
// the others are decoration. The table of the screen carries the same figures.
import { geoEqualEarth, geoPath } from "d3-geo";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import type { Feature, FeatureCollection, Geometry } from "geojson";
import countries110m from "world-atlas/countries-110m.json";
import { useMemo } from "react";
import { NAME_TO_ALPHA2, NUMERIC_TO_ALPHA2 } from "./countryCodes";
import styles from "./WealthMap.module.css";

export interface CountryFill {
  code: string;
  label: string;
  fill: string;
}

const WIDTH = 960;
const HEIGHT = 500;

type Props = { name?: string };

function useShapes() {
  return useMemo(() => {
    const topology = countries110m as unknown as Topology<{ countries: GeometryCollection<Props> }>;
    const collection = feature(topology, topology.objects.countries) as FeatureCollection<Geometry, Props>;
    const projection = geoEqualEarth().fitSize([WIDTH, HEIGHT], { type: "Sphere" } as never);
    const path = geoPath(projection);
    return collection.features.map((f: Feature<Geometry, Props>) => ({
      code: (f.id !== undefined ? NUMERIC_TO_ALPHA2[String(f.id)] : undefined) ?? NAME_TO_ALPHA2[f.properties?.name ?? ""] ?? "",
      d: path(f) ?? "",
    }));
  }, []);
}

export default function WorldMap({ fills, selected, onSelect, label }: { fills: ReadonlyMap<string, CountryFill>; selected: string | undefined; onSelect: (code: string) => void; label: string }) {
  const shapes = useShapes();
  return (
    <svg className={styles.map} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="group" aria-label={label} data-testid="world-map">
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
            role="button"
            tabIndex={0}
            aria-label={f.label}
            aria-pressed={selected === s.code}
            data-country={s.code}
            onClick={() => onSelect(s.code)}
            onKeyDown={(e) => {
              if (e.key === "Enter" || e.key === " ") {
                e.preventDefault();
                onSelect(s.code);
              }
            }}
          >
            <title>{f.label}</title>
          </path>
        );
      })}
    </svg>
  );
}
