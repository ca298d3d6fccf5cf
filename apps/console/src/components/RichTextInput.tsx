import { useRef, useState } from 'react';
import { Button, Input, Space, Tabs, Tooltip } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { BoldOutlined, LinkOutlined, PictureOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { isSafeRichUrl } from '@kefu/protocol';
import { RichText } from './RichText';

type Insert = { kind: 'link' | 'image'; text: string; url: string } | null;

/**
 * The answer editor: plain text with the marks of rich-text.ts, a toolbar that inserts them at the caret
 * (bold around the selection, a link, an image by URL) and a preview tab. A Form.Item control (value /
 * onChange).
 */
export function RichTextInput(props: {
  value?: string;
  onChange?: (v: string) => void;
  maxLength?: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  const ref = useRef<TextAreaRef>(null);
  const [insert, setInsert] = useState<Insert>(null);
  const value = props.value ?? '';
  const area = () => ref.current?.resizableTextArea?.textArea;
  const put = (make: (selected: string) => string) => {
    const el = area();
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    props.onChange?.(value.slice(0, start) + make(value.slice(start, end)) + value.slice(end));
  };
  const id = props.testId ?? 'rich';
  const urlOk = insert ? isSafeRichUrl(insert.url) : false;
  const editor = (
    <>
      <Space size={4} style={{ marginBottom: 6 }} wrap>
        <Tooltip title={t('kb.bold')}>
          <Button
            size="small"
            icon={<BoldOutlined />}
            aria-label={t('kb.bold')}
            onClick={() => put((s) => `**${s || t('kb.bold')}**`)}
          />
        </Tooltip>
        <Tooltip title={t('kb.link')}>
          <Button
            size="small"
            icon={<LinkOutlined />}
            aria-label={t('kb.link')}
            data-testid={`${id}-link`}
            onClick={() => setInsert({ kind: 'link', text: '', url: 'https://' })}
          />
        </Tooltip>
        <Tooltip title={t('kb.image')}>
          <Button
            size="small"
            icon={<PictureOutlined />}
            aria-label={t('kb.image')}
            onClick={() => setInsert({ kind: 'image', text: '', url: 'https://' })}
          />
        </Tooltip>
      </Space>
      {insert && (
        <Space.Compact style={{ width: '100%', marginBottom: 6 }}>
          <Input
            style={{ width: '35%' }}
            placeholder={insert.kind === 'link' ? t('kb.link') : t('kb.image')}
            value={insert.text}
            onChange={(e) => setInsert({ ...insert, text: e.target.value })}
          />
          <Input
            status={urlOk ? undefined : 'error'}
            placeholder={t('kb.urlPrompt')}
            value={insert.url}
            onChange={(e) => setInsert({ ...insert, url: e.target.value.trim() })}
            data-testid={`${id}-url`}
          />
          <Button
            type="primary"
            disabled={!urlOk}
            onClick={() => {
              const label = insert.text.replace(/[[\]]/g, '') || insert.url;
              put(() =>
                insert.kind === 'link' ? `[${label}](${insert.url})` : `![${label}](${insert.url})`,
              );
              setInsert(null);
            }}
          >
            {t('common.ok')}
          </Button>
          <Button onClick={() => setInsert(null)}>{t('common.cancel')}</Button>
        </Space.Compact>
      )}
      <Input.TextArea
        ref={ref}
        value={value}
        maxLength={props.maxLength}
        showCount={!!props.maxLength}
        autoSize={{ minRows: 4, maxRows: 10 }}
        onChange={(e) => props.onChange?.(e.target.value)}
        data-testid={id}
      />
    </>
  );
  return (
    <Tabs
      size="small"
      items={[
        { key: 'edit', label: t('common.edit'), children: editor },
        {
          key: 'preview',
          label: t('kb.preview'),
          children: (
            <div style={{ minHeight: 96, padding: 8, border: '1px solid rgba(5,5,5,0.06)', borderRadius: 6 }}>
              <RichText text={value} testId={`${id}-preview`} />
            </div>
          ),
        },
      ]}
    />
  );
}
