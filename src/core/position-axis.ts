/*
 * How a position (1st place, 2nd…) is drawn, in the web chart and the CLI's sparkline alike: 1st
 * place at the top. Apart from the trend's counting (./trend.ts) so that a page's first load carries
 * these two and not the mention matcher's word lists.
 */

/** Which way a position is drawn. */
export const POSITION_DIRECTION = "higher = nearer 1st place";

/** A position axis's range, from 1st place to the worst mean seen (at least 2nd): the web chart's and the sparkline's. */
export function positionRange(worst: number): [number, number] {
  return [1, Math.max(2, Math.ceil(worst))];
}
