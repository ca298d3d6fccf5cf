/** Room names, only through these helpers. */
export const agentRoom = (userid: string): string => `agent:${userid}`;
export const visitorRoom = (userid: string): string => `visitor:${userid}`;
export const serviceRoom = (agentserviceid: string): string => `service:${agentserviceid}`;
export const orgRoom = (orgi: string): string => `org:${orgi}`;
/** Supervisors watching the monitor: the whole tenant (organ null) or one department (A03_A02). */
export const monitorRoom = (orgi: string, organ: string | null): string =>
  organ ? `monitor:${orgi}:${organ}` : `monitor:${orgi}`;
