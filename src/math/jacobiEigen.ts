/**
 * Eigen-decomposition of a small real symmetric matrix by cyclic Jacobi rotations: each rotation
 * zeroes one off-diagonal pair exactly, and the sweeps converge quadratically to a diagonal matrix,
 * so the result is accurate to a few ulps of the matrix norm (power iteration, by contrast, slows
 * to a crawl when the two largest eigenvalues are close: rotations fitted that way stall near 1e-3
 * degrees).
 */

/** Sweeps after which {@link JacobiEigenSymmetric} stops even if not converged (a 4x4 converges in 5-8). */
export const JACOBI_MAX_SWEEPS = 50;

/**
 * Decomposes the symmetric `n` x `n` matrix `a` (row-major, only read) as `V diag(values) V^T`.
 * Converges when the off-diagonal part is below 1e-300 or at machine precision of the diagonal.
 * Allocation-free when the caller passes scratch `work` (n * n numbers).
 * @param a the matrix, row-major, n * n numbers; symmetric (the upper triangle is what is read)
 * @param n its size
 * @param values written: the n eigenvalues, unsorted
 * @param vectors written: the eigenvectors as columns, row-major n * n (vectors[i * n + k] is component i of eigenvector k), orthonormal
 * @param work scratch of n * n numbers (a copy of `a` is diagonalized there)
 * @returns the number of sweeps used
 */
export function JacobiEigenSymmetric(
    a: ArrayLike<number>,
    n: number,
    values: Float64Array,
    vectors: Float64Array,
    work: Float64Array = new Float64Array(n * n),
): number {
    for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
            // Symmetrize from the upper triangle.
            work[i * n + j] = i <= j ? a[i * n + j] : a[j * n + i];
            vectors[i * n + j] = i === j ? 1 : 0;
        }
    }
    let sweep = 0;
    for (; sweep < JACOBI_MAX_SWEEPS; sweep++) {
        let off = 0;
        let diag = 0;
        for (let i = 0; i < n; i++) {
            diag += work[i * n + i] * work[i * n + i];
            for (let j = i + 1; j < n; j++) off += work[i * n + j] * work[i * n + j];
        }
        if (off === 0 || off < 1e-300 || off <= 1e-32 * diag) break;
        for (let p = 0; p < n; p++) {
            for (let q = p + 1; q < n; q++) {
                const apq = work[p * n + q];
                if (apq === 0) continue;
                const app = work[p * n + p];
                const aqq = work[q * n + q];
                // Rotation angle that zeroes a[p][q]: tan(2 phi) = 2 apq / (aqq - app), the smaller root.
                const theta = (aqq - app) / (2 * apq);
                const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
                const c = 1 / Math.sqrt(t * t + 1);
                const s = t * c;
                // a = J^T a J, on rows/columns p and q
                for (let k = 0; k < n; k++) {
                    const akp = work[k * n + p];
                    const akq = work[k * n + q];
                    work[k * n + p] = c * akp - s * akq;
                    work[k * n + q] = s * akp + c * akq;
                }
                for (let k = 0; k < n; k++) {
                    const apk = work[p * n + k];
                    const aqk = work[q * n + k];
                    work[p * n + k] = c * apk - s * aqk;
                    work[q * n + k] = s * apk + c * aqk;
                }
                work[p * n + q] = 0;
                work[q * n + p] = 0;
                // V = V J
                for (let k = 0; k < n; k++) {
                    const vkp = vectors[k * n + p];
                    const vkq = vectors[k * n + q];
                    vectors[k * n + p] = c * vkp - s * vkq;
                    vectors[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    for (let i = 0; i < n; i++) values[i] = work[i * n + i];
    return sweep;
}
