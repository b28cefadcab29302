// A loopback HTTP server that answers 204 to everything and keeps each request's headers: the far
// end of a webhook in the alert tests.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Receiver {
  url: string;
  port: number;
  got: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function receiver(): Promise<Receiver> {
  const got: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    got.push(req.headers);
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}
