// One Redis command over a fresh loopback connection, in the plain RESP2 protocol, for the harness that
// builds and fails over test clusters: no client library between the test and the server it checks,
// so a library's own retries and reconnects never hide what a node answers.
import net from 'node:net';

export type Reply = string | number | null | Error | Reply[];

/** Parses one reply from the start of `data`; undefined while it is incomplete. */
function parse(data: Buffer, at: number): [Reply, number] | undefined {
  const end = data.indexOf('\r\n', at);
  if (end < 0) return undefined;
  const line = data.toString('utf8', at + 1, end);
  const next = end + 2;
  switch (String.fromCharCode(data[at] as number)) {
    case '+':
      return [line, next];
    case '-':
      return [new Error(line), next];
    case ':':
      return [Number(line), next];
    case '$': {
      const length = Number(line);
      if (length < 0) return [null, next];
      if (data.length < next + length + 2) return undefined;
      return [data.toString('utf8', next, next + length), next + length + 2];
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return [null, next];
      const items: Reply[] = [];
      let position = next;
      for (let i = 0; i < count; i++) {
        const item = parse(data, position);
        if (item === undefined) return undefined;
        items.push(item[0]);
        position = item[1];
      }
      return [items, position];
    }
    default:
      throw new Error(`unreadable RESP reply: ${data.toString('utf8', at, Math.min(data.length, at + 40))}`);
  }
}

/** Sends one command to 127.0.0.1:`port`; answers its reply (a Redis error reply as an Error value). */
export function call(port: number, args: ReadonlyArray<string | number>, timeoutMs = 5000): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(timeoutMs, () => fail(new Error(`127.0.0.1:${port} did not answer ${String(args[0])} within ${timeoutMs} ms`)));
    socket.once('error', fail);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const reply = parse(data, 0);
      if (reply === undefined) return;
      socket.destroy();
      resolve(reply[0]);
    });
    const words = args.map(String);
    socket.write(`*${words.length}\r\n${words.map((w) => `$${Buffer.byteLength(w)}\r\n${w}\r\n`).join('')}`);
  });
}

/** Like call, but a Redis error reply rejects. */
export async function command(port: number, ...args: Array<string | number>): Promise<Reply> {
  const reply = await call(port, args);
  if (reply instanceof Error) throw new Error(`127.0.0.1:${port} ${args.join(' ')}: ${reply.message}`);
  return reply;
}

/** The `field:value` lines of an INFO reply as a record. */
export async function info(port: number, section: string): Promise<Record<string, string>> {
  const text = String(await command(port, 'INFO', section));
  return Object.fromEntries(
    text
      .split('\r\n')
      .filter((line) => line.includes(':'))
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]),
  );
}

/** `master`, `slave` or `sentinel`: the first word of ROLE, as the node itself says now. */
export async function role(port: number): Promise<string> {
  const reply = await command(port, 'ROLE');
  return Array.isArray(reply) ? String(reply[0]) : String(reply);
}

