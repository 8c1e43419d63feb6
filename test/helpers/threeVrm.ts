import { readFileSync } from "node:fs";
import * as THREE from "three";
import { GLTFLoader, type GLTF } from "three/examples/jsm/loaders/GLTFLoader.js";
import { VRMLoaderPlugin, type VRM } from "@pixiv/three-vrm";
import { VRMAnimationLoaderPlugin, type VRMAnimation } from "@pixiv/three-vrm-animation";

/**
 * Parses a glTF binary with three.js's GLTFLoader and three-vrm's plugins, in Node: textures are
 * replaced by empty ones (the loader would need a DOM to decode images; the tests need none).
 */
export async function LoadWithThreeVrmAsync(bytes: Uint8Array): Promise<GLTF> {
    const loader = new GLTFLoader();
    loader.register(() => ({ name: "NoImages", loadTexture: () => Promise.resolve(new THREE.Texture()) }) as never);
    loader.register((parser) => new VRMLoaderPlugin(parser));
    loader.register((parser) => new VRMAnimationLoaderPlugin(parser));
    const copy = bytes.slice().buffer;
    return loader.parseAsync(copy, "");
}

/** A VRM file read by three-vrm. */
export async function LoadVrmAsync(file: string): Promise<VRM> {
    const gltf = await LoadWithThreeVrmAsync(new Uint8Array(readFileSync(file)));
    const vrm = gltf.userData.vrm as VRM | undefined;
    if (!vrm) throw new Error(`${file}: three-vrm found no VRM in it`);
    return vrm;
}

/** The VRM Animations of a .vrma file's bytes, as three-vrm-animation reads them. */
export async function LoadVrmAnimationsAsync(bytes: Uint8Array): Promise<VRMAnimation[]> {
    const gltf = await LoadWithThreeVrmAsync(bytes);
    return (gltf.userData.vrmAnimations as VRMAnimation[] | undefined) ?? [];
}
