import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ImageViewer } from './ImageViewer';

vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (k: string) => k }) }));

afterEach(cleanup);

const images = [
  { src: '/res/image.html?id=a' },
  { src: '/res/image.html?id=b' },
  { src: '/res/image.html?id=c' },
];

describe('ImageViewer', () => {
  it('renders above everything and navigates with the arrow keys, wrapping around', () => {
    render(<ImageViewer images={images} index={0} onClose={() => undefined} />);
    const root = screen.getByTestId('image-viewer');
    expect(root.style.zIndex).toBe('9999');
    expect(screen.getByTestId('viewer-index').textContent).toBe('1 / 3');
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    expect(screen.getByTestId('viewer-index').textContent).toBe('3 / 3');
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(screen.getByTestId('viewer-index').textContent).toBe('1 / 3');
  });

  it('zooms by button and wheel, and space toggles the mode', () => {
    render(<ImageViewer images={images} index={1} onClose={() => undefined} />);
    fireEvent.click(screen.getByTestId('viewer-zoom-in'));
    expect(screen.getByTestId('viewer-scale').textContent).toBe('120%');
    fireEvent.wheel(screen.getByTestId('image-viewer'), { deltaY: 100 });
    expect(screen.getByTestId('viewer-scale').textContent).toBe('119%');
    for (let i = 0; i < 10; i++) fireEvent.click(screen.getByTestId('viewer-zoom-out'));
    expect(screen.getByTestId('viewer-scale').textContent).toBe('20%');
    fireEvent.click(screen.getByTestId('viewer-rotate-right'));
    expect(screen.getByTestId('viewer-image').style.transform).toBe('scale(0.2) rotate(90deg)');
    fireEvent.keyDown(window, { key: ' ' });
    expect(screen.getByTestId('viewer-scale').textContent).toBe('100%');
  });

  it('Esc closes; a failed image shows 加载失败', () => {
    const onClose = vi.fn();
    render(<ImageViewer images={images} index={2} onClose={onClose} />);
    expect(screen.getByTestId('viewer-image').getAttribute('alt')).toBe('加载失败');
    fireEvent.error(screen.getByTestId('viewer-image'));
    expect(screen.getByTestId('viewer-failed').textContent).toBe('加载失败');
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('renders nothing without an index', () => {
    render(<ImageViewer images={images} index={null} onClose={() => undefined} />);
    expect(screen.queryByTestId('image-viewer')).toBeNull();
  });
});
