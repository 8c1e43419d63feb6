import { basename, extname } from "node:path";
import type { Animation } from "@babylonjs/core/Animations/animation.js";
import type { AssetContainer } from "@babylonjs/core/assetContainer.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import type { Node } from "@babylonjs/core/node.js";
import { HumanoidError } from "../errors.js";
import { SetGltfExportNodeNames } from "../io/gltfExportNames.js";
import type { IGltfDocument } from "../io/gltfJson.js";
import { WriteFilesAtomicallyAsync } from "./convertFile.js";

/**
 * Writes a character loaded into a container, with only the given animations, as one GLB file
 * (Babylon's glTF exporter): the container is added to its scene, every node is written under a
 * name of its own that tells which node of the character file it is (`node<N>` where it had
 * none, see `SetGltfExportNodeNames`; the names are put back afterwards), Babylon's log is quiet
 * meanwhile, and the file is written whole or not at all. Throws a {@link HumanoidError}
 * `FILE_WRITE` naming the file when the exporter fails. Returns the bytes written.
 * @param container the character (its nodes, meshes, cameras and lights are exported)
 * @param animations the animations to export with it
 * @param gltf the character file's glTF JSON, for the names of unnamed nodes
 * @param output the GLB file to write
 */
export async function WriteCharacterGlbAsync(
    container: AssetContainer,
    animations: Iterable<Animation>,
    gltf: IGltfDocument | undefined,
    output: string,
): Promise<Uint8Array> {
    container.addAllToScene();
    const exportedNodes = new Set<Node>([...container.transformNodes, ...container.meshes, ...container.cameras, ...container.lights]);
    const exportedAnimations = new Set<Animation>(animations);
    const restoreNames = SetGltfExportNodeNames(exportedNodes, gltf);
    const saved = { log: Logger.Log, warn: Logger.Warn };
    Logger.Log = () => undefined;
    Logger.Warn = () => undefined;
    let bytes: Uint8Array;
    try {
        // Loaded here, not on import: the exporter (and its extensions) costs about 0.3 s to load, which other commands need not pay.
        const { GLTF2Export } = await import("@babylonjs/serializers/glTF/2.0/index.js");
        const data = await GLTF2Export.GLBAsync(container.scene, basename(output, extname(output)), {
            exportWithoutWaitingForScene: true,
            shouldExportNode: (node) => exportedNodes.has(node),
            shouldExportAnimation: (animation) => exportedAnimations.has(animation),
        });
        const blob = Object.values(data.files)[0];
        if (!blob) throw new Error("it produced no file");
        bytes = typeof blob === "string" ? new TextEncoder().encode(blob) : new Uint8Array(await blob.arrayBuffer());
    } catch (e) {
        throw new HumanoidError("FILE_WRITE", `${output}: Babylon's glTF exporter failed: ${String((e as Error)?.message ?? e).slice(0, 400)}`);
    } finally {
        Logger.Log = saved.log;
        Logger.Warn = saved.warn;
        restoreNames();
    }
    await WriteFilesAtomicallyAsync([{ path: output, bytes }]);
    return bytes;
}
