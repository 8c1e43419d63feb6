/**
 * RMS third difference of one joint's path over a recording (per frame, x y z of every joint, as
 * `RecordHumanoidRetarget` writes them), in the recording's units: how jerky that joint moves.
 * @param path per frame, the joints' positions (x y z each)
 * @param joint the joint's index
 */
export function JointPathJerk(path: readonly ArrayLike<number>[], joint: number): number {
    let sum = 0;
    for (let f = 3; f < path.length; f++)
        for (let i = 0; i < 3; i++) {
            const x = (k: number): number => path[f - k][3 * joint + i];
            sum += (x(0) - 3 * x(1) + 3 * x(2) - x(3)) ** 2;
        }
    return Math.sqrt(sum / Math.max(1, path.length - 3));
}
