/** Room names, only through these helpers. */
export const agentRoom = (userid: string): string => `agent:${userid}`;
export const visitorRoom = (userid: string): string => `visitor:${userid}`;
export const serviceRoom = (agentserviceid: string): string => `service:${agentserviceid}`;
export const orgRoom = (orgi: string): string => `org:${orgi}`;
