import type { ReactNode } from 'react';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useConfirmAction } from '../lib/confirm';

/** Up / down link buttons of a row in a hand-sorted table (the first cannot go up, the last not down). */
export function MoveButtons(props: {
  index: number;
  count: number;
  onMove: (index: number, d: -1 | 1) => unknown;
  upLabel: string;
  downLabel: string;
  downTestId?: string;
}) {
  const { index } = props;
  return (
    <>
      <Button
        type="link"
        size="small"
        icon={<ArrowUpOutlined />}
        disabled={index === 0}
        aria-label={props.upLabel}
        onClick={() => void props.onMove(index, -1)}
      />
      <Button
        type="link"
        size="small"
        icon={<ArrowDownOutlined />}
        disabled={index === props.count - 1}
        aria-label={props.downLabel}
        data-testid={props.downTestId}
        onClick={() => void props.onMove(index, 1)}
      />
    </>
  );
}

/** A row's "edit" link. */
export function EditLink(props: { onClick: () => void; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Button type="link" size="small" data-testid={props.testId} onClick={props.onClick}>
      {t('common.edit')}
    </Button>
  );
}

/**
 * A row action that asks first (spec: the "提示" dialog with confirm and cancel), then runs `onConfirm`,
 * reports the server's message and calls `onDone`. Errors were toasted by the request layer.
 */
export function ConfirmLink(props: {
  label: ReactNode;
  confirmText: string;
  onConfirm: () => Promise<unknown>;
  onDone?: () => void;
  danger?: boolean;
  disabled?: boolean;
  testId?: string;
}) {
  const confirm = useConfirmAction();
  return (
    <Button
      type="link"
      size="small"
      danger={props.danger}
      disabled={props.disabled}
      data-testid={props.testId}
      onClick={() => confirm(props.confirmText, props.onConfirm, props.onDone)}
    >
      {props.label}
    </Button>
  );
}

/**
 * A row's "delete" link: asks in the "提示" dialog (common.deleteConfirm with the row's name), then
 * deletes, reports the server's message and calls `onDone`.
 */
export function DeleteLink(props: {
  name: string;
  onDelete: () => Promise<unknown>;
  onDone: () => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmLink
      label={t('common.delete')}
      confirmText={t('common.deleteConfirm', { name: props.name })}
      onConfirm={props.onDelete}
      onDone={props.onDone}
      danger
      testId={props.testId}
    />
  );
}
