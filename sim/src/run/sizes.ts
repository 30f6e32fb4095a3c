// Byte sizes of the wire objects of docs/protocol.md for typical field values, so the fast mode
// charges the same per-byte costs the exact mode measures on the engines' real bytes.

export interface OpSizes {
  request_line: number; // client → leader, with its newline
  reply_line: number; // leader → client
  accept_request: number;
  accept_response: number;
}

export interface WireSizes {
  read: OpSizes;
  update: OpSizes;
  commit_request: number;
  commit_response: number;
  prepare_request: number;
  /** a prepare's answer with an empty log (each instance it carries adds an accept's instance) */
  prepare_response: number;
}

export function wireSizes(key_bytes: number, value_bytes: number): WireSizes {
  const key = 'k'.repeat(key_bytes);
  const value = 'v'.repeat(value_bytes);
  // Typical magnitudes mid-run: ballot 2.0 (512), index and channel ids around 10^6, client ids 10^3.
  const instance = (cmd: object) =>
    JSON.stringify({ ballot: 512, index: 1234567, client_id: 1017, request_id: 12345, state: 'in_progress', command: cmd });
  const accept = (cmd: object) => `{"type":"accept_request","from":0,"to":1,"channel_id":1234567,"instance":${instance(cmd)}}`.length;
  const acceptResponse = '{"type":"accept_response","from":1,"to":0,"channel_id":1234567,"ok":true,"ballot":512}'.length;
  return {
    read: {
      request_line: `get ${key}\n`.length,
      reply_line: `${value}\n`.length,
      accept_request: accept({ type: 'get', key }),
      accept_response: acceptResponse,
    },
    update: {
      request_line: `put ${key} ${value}\n`.length,
      reply_line: 1,
      accept_request: accept({ type: 'put', key, value }),
      accept_response: acceptResponse,
    },
    commit_request: '{"type":"commit_request","from":0,"to":1,"channel_id":1234567,"ballot":512,"last_executed":1234567,"global_last_executed":1234567}'.length,
    commit_response: '{"type":"commit_response","from":1,"to":0,"channel_id":1234567,"ok":true,"ballot":512,"last_executed":1234567}'.length,
    prepare_request: '{"type":"prepare_request","from":1,"to":0,"channel_id":1234567,"ballot":513}'.length,
    prepare_response: '{"type":"prepare_response","from":0,"to":1,"channel_id":1234567,"ok":true,"ballot":513,"instances":[]}'.length,
  };
}
