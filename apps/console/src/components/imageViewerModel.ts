import { IMAGE_VIEWER } from '@kefu/protocol';

/** View state of the shared image viewer (spec sections 2, 8, 9). */
export interface ViewerState {
  index: number;
  scale: number;
  rotate: number;
  /** 'contain' fits the image into the window; 'original' shows it at its natural size. */
  mode: 'contain' | 'original';
}

export const initialViewer = (index = 0): ViewerState => ({ index, scale: 1, rotate: 0, mode: 'contain' });

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Zoom by a step (positive in, negative out); never below the minimum scale. */
export const zoom = (s: ViewerState, step: number): ViewerState => ({
  ...s,
  scale: Math.max(IMAGE_VIEWER.minScale, round(s.scale + step)),
});

export const zoomIn = (s: ViewerState) => zoom(s, IMAGE_VIEWER.zoomStep);
export const zoomOut = (s: ViewerState) => zoom(s, -IMAGE_VIEWER.zoomStep);

/** Mouse wheel: scrolling up (negative deltaY) zooms in by the wheel step. */
export const wheel = (s: ViewerState, deltaY: number): ViewerState =>
  deltaY === 0 ? s : zoom(s, deltaY < 0 ? IMAGE_VIEWER.wheelStep : -IMAGE_VIEWER.wheelStep);

export const rotate = (s: ViewerState, dir: 1 | -1 = 1): ViewerState => ({
  ...s,
  rotate: s.rotate + dir * IMAGE_VIEWER.rotateStep,
});

export const toggleMode = (s: ViewerState): ViewerState => ({
  ...s,
  mode: s.mode === 'contain' ? 'original' : 'contain',
  scale: 1,
  rotate: 0,
});

/** Previous/next with wrap-around; a new image starts unzoomed and unrotated. */
export function step(s: ViewerState, dir: 1 | -1, count: number): ViewerState {
  if (count <= 0) return s;
  const index = (((s.index + dir) % count) + count) % count;
  return { ...initialViewer(index), mode: s.mode };
}
