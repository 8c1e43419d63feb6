/** Browser tests (headless Chromium through playwright-core): `npm run test:e2e`. Same transform as jest.config.js. */
import base from "./jest.config.js";

export default {
    ...base,
    roots: ["<rootDir>/test/e2e"],
    testPathIgnorePatterns: [],
    testTimeout: 180000,
};
