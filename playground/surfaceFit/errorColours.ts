/** The error colour ramp of the surface-fit view: blue at no error, through cyan, green and yellow, to red at the scale's end. */

/** Where the ramp reaches red: 3% of the model's diagonal (a fraction of it). */
export const ERROR_SCALE_END = 0.03;

/** Hue in degrees of an error (fraction of the diagonal): 240 (blue) at 0, 0 (red) at {@link ERROR_SCALE_END} and beyond. */
export function ErrorHueDeg(error: number): number {
    const t = Math.min(1, Math.max(0, error / ERROR_SCALE_END));
    return 240 * (1 - t);
}

/** Writes the RGBA colour of every error (fraction of the diagonal) into `out` (4 numbers each, 0-1). */
export function ErrorColoursToRef(errors: ArrayLike<number>, out: Float32Array): Float32Array {
    for (let v = 0; v < errors.length; v++) {
        // HSV with full saturation and value: r g b from the hue's sextant.
        const h = ErrorHueDeg(errors[v]) / 60;
        const x = 1 - Math.abs((h % 2) - 1);
        const s = Math.floor(h);
        const [r, g, b] = s === 0 ? [1, x, 0] : s === 1 ? [x, 1, 0] : s === 2 ? [0, 1, x] : s === 3 ? [0, x, 1] : [x, 0, 1];
        out.set([r, g, b, 1], 4 * v);
    }
    return out;
}

/** The ramp as a CSS gradient, for the legend. */
export function ErrorRampCss(): string {
    const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => `hsl(${ErrorHueDeg(t * ERROR_SCALE_END)}, 100%, 50%) ${t * 100}%`);
    return `linear-gradient(to right, ${stops.join(", ")})`;
}
