// What the wealth map's screen hands the lazily loaded world map (WorldMap.tsx): each country's
// colour and label, and the id of the hatched pattern of a country without exchange rates. Apart
// from WorldMap.tsx so the screen's chunk does not pull the map's (d3-geo, the 110 m atlas).

export interface CountryFill {
  code: string;
  label: string;
  /** A colour, or `url(#…)` of a pattern the map defines. */
  fill: string;
}

export const NO_RATE_PATTERN = "wealth-map-no-rate";
