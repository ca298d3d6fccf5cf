import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button, Tooltip } from 'antd';
import {
  CloseOutlined,
  CompressOutlined,
  DownloadOutlined,
  ExpandOutlined,
  LeftOutlined,
  RightOutlined,
  RotateLeftOutlined,
  RotateRightOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CLIENT_TEXTS, IMAGE_VIEWER } from '@kefu/protocol';
import {
  initialViewer,
  rotate,
  step,
  toggleMode,
  wheel,
  zoomIn,
  zoomOut,
  type ViewerState,
} from './imageViewerModel';

export interface ViewerImage {
  src: string;
  /** Saved under this name by the download button. */
  name?: string;
  /** Where the download button fetches from (defaults to src). */
  download?: string;
}

interface Props {
  images: readonly ViewerImage[];
  /** Index of the image to open with; null closes the viewer. */
  index: number | null;
  onClose: () => void;
  zIndex?: number;
}

/**
 * The shared image viewer (spec section 2): zoom (buttons 0.2, wheel 0.015, never below 0.2), rotate
 * by 90°, fit/original mode, previous/next wrapping around, download. Esc closes, ←/→ navigate,
 * space toggles the mode. A failed image shows the alt text "加载失败".
 */
export function ImageViewer({ images, index, onClose, zIndex = IMAGE_VIEWER.zIndex }: Props) {
  if (index === null || images.length === 0) return null;
  return createPortal(
    <ViewerBody
      images={images}
      start={Math.min(index, images.length - 1)}
      onClose={onClose}
      zIndex={zIndex}
    />,
    document.body,
  );
}

function ViewerBody({
  images,
  start,
  onClose,
  zIndex,
}: {
  images: readonly ViewerImage[];
  start: number;
  onClose: () => void;
  zIndex: number;
}) {
  const { t } = useTranslation();
  const [s, setS] = useState<ViewerState>(() => initialViewer(start));
  const [failed, setFailed] = useState<Record<number, boolean>>({});
  const root = useRef<HTMLDivElement>(null);
  const count = images.length;
  const img = images[s.index];

  useEffect(() => {
    root.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
      else if (e.key === 'ArrowLeft') setS((v) => step(v, -1, count));
      else if (e.key === 'ArrowRight') setS((v) => step(v, 1, count));
      else if (e.key === 'ArrowUp') setS(zoomIn);
      else if (e.key === 'ArrowDown') setS(zoomOut);
      else if (e.key === ' ') setS(toggleMode);
      else return;
      e.preventDefault();
      e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [count, onClose]);

  useEffect(() => {
    const el = root.current;
    if (!el) return;
    // Non-passive so the page behind does not scroll while zooming.
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      setS((v) => wheel(v, e.deltaY));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const download = () => {
    const a = document.createElement('a');
    a.href = img.download ?? img.src;
    a.download = img.name ?? '';
    a.rel = 'noopener';
    document.body.appendChild(a);
    a.click();
    a.remove();
  };

  const imgStyle: CSSProperties = {
    transform: `scale(${s.scale}) rotate(${s.rotate}deg)`,
    transition: 'transform 0.15s ease',
    ...(s.mode === 'contain' ? { maxWidth: '90vw', maxHeight: '80vh' } : {}),
    objectFit: 'contain',
    userSelect: 'none',
    color: '#fff',
  };
  const tool = (key: string, label: string, icon: ReactNode, onClick: () => void) => (
    <Tooltip title={label} key={key}>
      <Button
        type="text"
        aria-label={label}
        data-testid={`viewer-${key}`}
        icon={icon}
        onClick={onClick}
        style={{ color: '#fff' }}
      />
    </Tooltip>
  );

  return (
    <div
      ref={root}
      tabIndex={-1}
      role="dialog"
      aria-modal="true"
      aria-label={t('viewer.title')}
      data-testid="image-viewer"
      style={{
        position: 'fixed',
        inset: 0,
        zIndex,
        background: 'rgba(0,0,0,0.82)',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        overflow: 'hidden',
        outline: 'none',
      }}
      onClick={(e) => e.target === e.currentTarget && onClose()}
    >
      <div style={{ position: 'absolute', top: 12, right: 12 }}>
        {tool('close', t('viewer.close'), <CloseOutlined />, onClose)}
      </div>
      {count > 1 && (
        <>
          <Button
            shape="circle"
            size="large"
            aria-label={t('viewer.prev')}
            data-testid="viewer-prev"
            icon={<LeftOutlined />}
            onClick={() => setS((v) => step(v, -1, count))}
            style={{ position: 'absolute', left: 24, top: '50%' }}
          />
          <Button
            shape="circle"
            size="large"
            aria-label={t('viewer.next')}
            data-testid="viewer-next"
            icon={<RightOutlined />}
            onClick={() => setS((v) => step(v, 1, count))}
            style={{ position: 'absolute', right: 24, top: '50%' }}
          />
        </>
      )}
      {failed[s.index] ? (
        <div data-testid="viewer-failed" style={{ color: '#fff', fontSize: 16 }}>
          {CLIENT_TEXTS.imageLoadFailed}
        </div>
      ) : (
        <img
          key={img.src}
          src={img.src}
          alt={CLIENT_TEXTS.imageLoadFailed}
          data-testid="viewer-image"
          draggable={false}
          style={imgStyle}
          onError={() => setFailed((f) => ({ ...f, [s.index]: true }))}
        />
      )}
      <div
        style={{
          position: 'absolute',
          bottom: 20,
          left: '50%',
          transform: 'translateX(-50%)',
          background: 'rgba(0,0,0,0.55)',
          borderRadius: 20,
          padding: '4px 12px',
          display: 'flex',
          alignItems: 'center',
          gap: 4,
        }}
      >
        {tool('zoom-out', t('viewer.zoomOut'), <ZoomOutOutlined />, () => setS(zoomOut))}
        <span data-testid="viewer-scale" style={{ color: '#fff', minWidth: 48, textAlign: 'center' }}>
          {Math.round(s.scale * 100)}%
        </span>
        {tool('zoom-in', t('viewer.zoomIn'), <ZoomInOutlined />, () => setS(zoomIn))}
        {tool('rotate-left', t('viewer.rotateLeft'), <RotateLeftOutlined />, () =>
          setS((v) => rotate(v, -1)),
        )}
        {tool('rotate-right', t('viewer.rotateRight'), <RotateRightOutlined />, () => setS((v) => rotate(v)))}
        {tool(
          'mode',
          s.mode === 'contain' ? t('viewer.original') : t('viewer.fit'),
          s.mode === 'contain' ? <ExpandOutlined /> : <CompressOutlined />,
          () => setS(toggleMode),
        )}
        {tool('download', t('viewer.download'), <DownloadOutlined />, download)}
        {count > 1 && (
          <span data-testid="viewer-index" style={{ color: '#fff', marginLeft: 8 }}>
            {s.index + 1} / {count}
          </span>
        )}
      </div>
    </div>
  );
}
