// A client on the TypeScript SDK (the one server-everything itself depends on), for the
// proxy's tests: node ts_client.mjs SDK_ROOT COMMAND ARGS... prints one JSON line.
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [sdk, cmd, ...args] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(join(sdk, "dist/esm", path)).href);
const { Client } = await load("client/index.js");
const { StdioClientTransport } = await load("client/stdio.js");
const { CreateMessageRequestSchema } = await load("types.js");

const transport = new StdioClientTransport({ command: cmd, args, env: process.env,
                                             stderr: "ignore" });
const client = new Client({ name: "ts-probe", version: "1" },
                          { capabilities: { sampling: {} } });
client.setRequestHandler(CreateMessageRequestSchema, async () => (
  { role: "assistant", model: "m", content: { type: "text", text: "sampled by ts" } }));
await client.connect(transport);
const tools = await client.listTools();
const echo = await client.callTool({ name: "echo", arguments: { message: "hi" } });
const sampled = await client.callTool({ name: "trigger-sampling-request",
                                        arguments: { prompt: "p", maxTokens: 5 } });
const structured = await client.callTool({ name: "get-structured-content",
                                           arguments: { location: "New York" } });
console.log(JSON.stringify({
  server: client.getServerVersion().name, tools: tools.tools.length,
  echo: echo.content[0].text, sampled: JSON.stringify(sampled.content).includes("sampled by ts"),
  structured: structured.structuredContent ?? null }));
await client.close();
