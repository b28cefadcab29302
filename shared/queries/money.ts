// Sums of per-message float costs carry binary noise (0.0011639999999999999). Figures leave the
// read model rounded to the nano-dollar: far below any price step, and exact for what is shown.
export function usd(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}
