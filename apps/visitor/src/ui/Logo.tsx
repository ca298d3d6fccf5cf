import { AgentIcon } from './icons.js';

/** The access point's logo, or (none set) a default avatar: a headset, never an empty circle. */
export function Logo({ src }: { src: string }) {
  return src ? (
    <img class="kf-logo" src={src} alt="" />
  ) : (
    <span class="kf-logo-default" data-testid="header-avatar">
      <AgentIcon />
    </span>
  );
}
