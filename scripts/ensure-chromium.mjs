#!/usr/bin/env node
// The browser tests drive Debian's Chromium (playwright-core brings no browser). Installs it with
// apt-get when it is missing, so that a fresh machine (CI) can run them; says what to do otherwise.
import { execSync } from "node:child_process";
import { FindChromium } from "./chromium.mjs";

if (!FindChromium()) {
    const root = typeof process.getuid === "function" && process.getuid() === 0;
    const sudo = root ? "" : "sudo ";
    process.stderr.write("ensure-chromium: Chromium is missing; installing it with apt-get (Debian package 'chromium')\n");
    try {
        execSync(`${sudo}apt-get update -qq && ${sudo}apt-get install -y -qq chromium`, {
            stdio: ["ignore", "ignore", "inherit"],
            env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
        });
    } catch {
        process.stderr.write("ensure-chromium: could not install it. Install Chromium yourself (apt-get install -y chromium) or set CHROMIUM_PATH.\n");
        process.exit(1);
    }
}
const path = FindChromium();
if (!path) {
    process.stderr.write("ensure-chromium: apt-get ran but no Chromium was found at /usr/bin/chromium; set CHROMIUM_PATH.\n");
    process.exit(1);
}
process.stdout.write(`ensure-chromium: ${path}\n`);
