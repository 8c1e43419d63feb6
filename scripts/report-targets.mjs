// The characters `npm run report` and `npm run report:extra` retarget onto (the four public
// character files and three BVH skeletons), as paths inside ../shared/data. package.json's
// `report` script lists the same files (an npm script cannot import this).
export const REPORT_TARGETS = [
    "glb/mixamo_xbot.glb",
    "glb/kaykit_mannequin/manny_med_mod.gltf",
    "glb/khronos_RiggedFigure.glb",
    "vrm/VRM1_skeleton_only_mtoon_UV_test.vrm",
    "bvh/cmu_cgspeed/cmu_walk.bvh",
    "bvh/bandai/dataset-1_walk_normal_001.bvh",
    "bvh/animated_drawings/hist_mixamo_Standard_Walk.bvh",
];
