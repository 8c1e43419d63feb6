import { PickClipByName } from "../../src/node/index.js";
import { errorOf } from "../helpers/errors.js";

const XBOT = [{ name: "Armature|Armature|agree_Armature" }, { name: "Armature|Armature|run_Armature" }, { name: "Armature|Armature|walk_Armature" }];

describe("--clip: PickClipByName", () => {
    it("picks the exact name first, else the one clip whose name contains the word (case aside)", () => {
        expect(PickClipByName(XBOT, "walk", "xbot.glb")).toBe(XBOT[2]);
        expect(PickClipByName(XBOT, "RUN", "xbot.glb")).toBe(XBOT[1]);
        const clips = [{ name: "walk" }, { name: "walk fast" }];
        expect(PickClipByName(clips, "walk", "a.glb")).toBe(clips[0]);
        expect(PickClipByName(clips, "fast", "a.glb")).toBe(clips[1]);
    });

    it("refuses none or several in one error naming the file and listing the clips", () => {
        const none = errorOf(() => PickClipByName(XBOT, "dance", "xbot.glb"));
        expect(none.code).toBe("BAD_OPTION");
        expect(none.message).toBe(
            "xbot.glb: no clip named 'dance' (the file has 'Armature|Armature|agree_Armature', 'Armature|Armature|run_Armature', 'Armature|Armature|walk_Armature')",
        );
        expect(errorOf(() => PickClipByName(XBOT, "Armature", "xbot.glb")).message).toMatch(
            /^xbot\.glb: 3 clips have 'Armature' in their name \(the file has /,
        );
        expect(errorOf(() => PickClipByName([], "walk", "empty.glb")).message).toBe("empty.glb: no clip named 'walk' (the file has no clips)");
    });
});
