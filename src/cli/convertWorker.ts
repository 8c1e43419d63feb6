/**
 * Worker thread of `babylon-humanoid convert`: converts the inputs it is sent, one at a time, and
 * posts progress and the result of each.
 */
import { parentPort } from "node:worker_threads";
import { ConvertOneAsync, type IConvertTask } from "./convert.js";

const port = parentPort;
if (port) {
    port.on("message", (task: IConvertTask) => {
        let last = -1;
        void ConvertOneAsync(task, (fraction) => {
            // A message per percent at most.
            const pct = Math.floor(fraction * 100);
            if (pct === last) return;
            last = pct;
            port.postMessage({ type: "progress", fraction });
        }).then((result) => port.postMessage({ type: "done", result }));
    });
}
