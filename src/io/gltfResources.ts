import { HumanoidError } from "../errors.js";
import { IsGlb } from "./gltfJson.js";

/**
 * A glTF text file made self-contained ({@link EmbedGltfResources}): its bytes, and what it
 * referenced that was not given.
 */
export interface IEmbeddedGltf {
    /** The glTF JSON with every external buffer and image as a `data:` URI (UTF-8 bytes). */
    readonly bytes: Uint8Array;
    /** The paths (as the file wrote them, decoded) of the resources taken from those given, buffers and images, each once. */
    readonly used: readonly string[];
    /** Images not among those given: each replaced by a 1 x 1 white PNG (the skeleton does not need them). */
    readonly missingImages: readonly string[];
}

/** A 1 x 1 opaque white PNG, for an image that was not given (a base colour texture of white leaves the material's own colour). */
const BLANK_PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4nGP4DwQACfsD/fteaysAAAAASUVORK5CYII=";

/** MIME types of the image files a glTF may name, by extension. */
const IMAGE_TYPES: Readonly<Record<string, string>> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", webp: "image/webp", ktx2: "image/ktx2" };

/** A URI's path, percent-decoded where it can be (`textures/My%20Skin.png` -> `textures/My Skin.png`). */
function pathOf(uri: string): string {
    const path = uri.split(/[?#]/)[0];
    try {
        return decodeURIComponent(path);
    } catch {
        return path;
    }
}

/** The last segment of a URI's path, decoded (`textures/My%20Skin.png` -> `My Skin.png`). */
function fileNameOf(uri: string): string {
    return pathOf(uri).split("/").pop() ?? uri;
}

/** A glTF document's parts that name other files. */
interface IGltfResourceJson {
    buffers?: Array<{ uri?: string; byteLength?: unknown }>;
    images?: Array<{ uri?: string; mimeType?: string }>;
}

/** Whether a `uri` names another file (not a `data:` URI, not empty). */
const isExternal = (uri: unknown): uri is string => typeof uri === "string" && uri.length > 0 && !uri.startsWith("data:");

/** The glTF text's document, or a {@link HumanoidError} `GLTF_PARSE` naming the file. */
function parseGltfText(bytes: Uint8Array, fileName: string): IGltfResourceJson {
    let json: unknown;
    try {
        json = JSON.parse(new TextDecoder().decode(bytes));
    } catch (e) {
        throw new HumanoidError("GLTF_PARSE", `${fileName}: not glTF JSON (${(e as Error).message})`);
    }
    if (!json || typeof json !== "object" || Array.isArray(json))
        throw new HumanoidError("GLTF_PARSE", `${fileName}: not glTF JSON (the document is not an object)`);
    return json as IGltfResourceJson;
}

/** The other files a glTF text file names ({@link ListGltfResources}): paths relative to it, percent-decoded. */
export interface IGltfResourceList {
    /** Its buffers' files (the mesh, skin and animation data: needed). */
    readonly buffers: string[];
    /** Its images' files (textures: not needed for the skeleton). */
    readonly images: string[];
}

/**
 * The other files a glTF text file (`.gltf`) names: its external buffers' and images' URIs as
 * paths relative to it, percent-decoded (`textures/My Skin.png`), each once. None for a `.glb`.
 * Throws a {@link HumanoidError} `GLTF_PARSE` for a file that is not glTF JSON.
 * @param bytes the file's bytes
 * @param fileName its name, for messages
 */
export function ListGltfResources(bytes: Uint8Array, fileName: string): IGltfResourceList {
    if (IsGlb(bytes)) return { buffers: [], images: [] };
    const json = parseGltfText(bytes, fileName);
    const paths = (list: unknown): string[] => [
        ...new Set((Array.isArray(list) ? list : []).flatMap((e: { uri?: unknown } | null) => (e && isExternal(e.uri) ? [pathOf(e.uri)] : []))),
    ];
    return { buffers: paths(json.buffers), images: paths(json.images) };
}

/** Node's `Buffer`, where there is one (its base64 is 6 times as fast as `btoa`'s). */
const NodeBuffer = (globalThis as { Buffer?: { from(b: Uint8Array): { toString(encoding: "base64"): string } } }).Buffer;

/** Base64 of bytes: Node's `Buffer`, else chunks through `btoa` (browsers). */
function base64Of(bytes: Uint8Array): string {
    if (NodeBuffer) return NodeBuffer.from(bytes).toString("base64");
    let s = "";
    const chunk = 0x8000;
    for (let i = 0; i < bytes.length; i += chunk) s += String.fromCharCode.apply(null, bytes.subarray(i, i + chunk) as unknown as number[]);
    return btoa(s);
}

/**
 * Makes a glTF text file (`.gltf`) whose buffers and images are separate files self-contained,
 * from those files' bytes: each external `buffers[].uri` and `images[].uri` becomes a `data:` URI.
 * What a browser has after a user drops or picks a `.gltf` with its `.bin` and textures (KayKit's
 * characters come so): the loaders can then read it from bytes alone
 * (`LoadHumanoidCharacterAsync`). A resource is found by its file name (the URI's last path
 * segment, percent-decoded; case-sensitive first, then not). A `.glb` or a `.gltf` with nothing
 * external is returned as it is. Throws a {@link HumanoidError} `GLTF_PARSE` for a file that is not
 * glTF JSON or a buffer shorter than the file declares, and `FILE_READ` naming every buffer that
 * is not among `resources` at once (the skeleton's data may be in any of them); an image that is
 * missing is replaced by an empty one and listed in {@link IEmbeddedGltf.missingImages}.
 * @param bytes the `.gltf` file's bytes
 * @param fileName its name, for messages
 * @param resources the other files given with it, by their path relative to it as the file
 * writes it ({@link ListGltfResources}) or by file name alone (more may be given than it uses)
 * @param options `images`: embed the images too (default true); false leaves their URIs as they are
 */
export function EmbedGltfResources(
    bytes: Uint8Array,
    fileName: string,
    resources: ReadonlyMap<string, Uint8Array>,
    options: { images?: boolean } = {},
): IEmbeddedGltf {
    if (IsGlb(bytes)) return { bytes, used: [], missingImages: [] };
    const json = parseGltfText(bytes, fileName);
    const lowerCase = new Map<string, Uint8Array>();
    for (const [name, data] of resources) if (!lowerCase.has(name.toLowerCase())) lowerCase.set(name.toLowerCase(), data);
    /** A resource by its path, else by its file name, else by either without case. */
    const find = (uri: string): Uint8Array | undefined =>
        resources.get(pathOf(uri)) ??
        resources.get(fileNameOf(uri)) ??
        lowerCase.get(pathOf(uri).toLowerCase()) ??
        lowerCase.get(fileNameOf(uri).toLowerCase());
    const used = new Set<string>();
    /** Each resource's data URI, made once however often the file names it. */
    const uris = new Map<string, string>();
    const dataUri = (path: string, type: string, data: Uint8Array): string => {
        let uri = uris.get(path);
        if (uri === undefined) uris.set(path, (uri = `data:${type};base64,${base64Of(data)}`));
        used.add(path);
        return uri;
    };
    const missingBuffers: string[] = [];
    const missingImages: string[] = [];
    for (const [i, buffer] of (Array.isArray(json.buffers) ? json.buffers : []).entries()) {
        if (!buffer || !isExternal(buffer.uri)) continue;
        const data = find(buffer.uri);
        if (!data) {
            missingBuffers.push(fileNameOf(buffer.uri));
            continue;
        }
        if (typeof buffer.byteLength === "number" && buffer.byteLength > data.length) {
            throw new HumanoidError(
                "GLTF_PARSE",
                `${fileName}: buffers[${i}].byteLength is ${buffer.byteLength}, but '${pathOf(buffer.uri)}' holds ${data.length} bytes`,
            );
        }
        buffer.uri = dataUri(pathOf(buffer.uri), "application/octet-stream", data);
    }
    if (missingBuffers.length) {
        throw new HumanoidError(
            "FILE_READ",
            `${fileName}: its data is in ${missingBuffers.join(", ")}, not among the files given: give ${missingBuffers.length > 1 ? "them" : "it"} together with the .gltf (or use a .glb)`,
        );
    }
    for (const image of options.images === false || !Array.isArray(json.images) ? [] : json.images) {
        if (!image || !isExternal(image.uri)) continue;
        const data = find(image.uri);
        if (!data) {
            missingImages.push(pathOf(image.uri));
            image.uri = BLANK_PNG;
            delete image.mimeType;
            continue;
        }
        const ext = fileNameOf(image.uri).split(".").pop()?.toLowerCase() ?? "";
        image.uri = dataUri(pathOf(image.uri), image.mimeType ?? IMAGE_TYPES[ext] ?? "application/octet-stream", data);
    }
    if (!used.size && !missingImages.length) return { bytes, used: [], missingImages };
    return { bytes: new TextEncoder().encode(JSON.stringify(json)), used: [...used], missingImages };
}
