import { describe, expect, it } from 'vitest';
import { initialViewer, rotate, step, toggleMode, wheel, zoom, zoomIn, zoomOut } from './imageViewerModel';

describe('image viewer model', () => {
  it('zooms by 0.2 per button press and never below 0.2', () => {
    let s = zoomIn(initialViewer());
    expect(s.scale).toBe(1.2);
    s = zoomOut(zoomOut(s));
    expect(s.scale).toBe(0.8);
    for (let i = 0; i < 10; i++) s = zoomOut(s);
    expect(s.scale).toBe(0.2);
    expect(zoom(s, -5).scale).toBe(0.2);
  });

  it('zooms by 0.015 per wheel step', () => {
    const s = initialViewer();
    expect(wheel(s, -100).scale).toBe(1.015);
    expect(wheel(s, 100).scale).toBe(0.985);
    expect(wheel(s, 0)).toBe(s);
  });

  it('rotates by 90 degrees', () => {
    expect(rotate(initialViewer()).rotate).toBe(90);
    expect(rotate(rotate(initialViewer()), -1).rotate).toBe(0);
  });

  it('wraps around at both ends and resets zoom and rotation', () => {
    const s = rotate(zoomIn(initialViewer(2)));
    const n = step(s, 1, 3);
    expect(n).toMatchObject({ index: 0, scale: 1, rotate: 0 });
    expect(step(initialViewer(0), -1, 3).index).toBe(2);
    expect(step(initialViewer(0), 1, 0).index).toBe(0);
  });

  it('toggles the display mode and keeps it while navigating', () => {
    const s = toggleMode(zoomIn(initialViewer()));
    expect(s).toMatchObject({ mode: 'original', scale: 1 });
    expect(step(s, 1, 2).mode).toBe('original');
    expect(toggleMode(s).mode).toBe('contain');
  });
});
