import { useState } from 'react';
import { Button, Empty, List, Popconfirm, Popover, Space, Tag, Tooltip, Upload } from 'antd';
import {
  DeleteOutlined,
  FolderOpenOutlined,
  UploadOutlined,
  VerticalAlignTopOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QUICK_FILE_PUBLIC_CODE, formatFileSize, type MsgType, type QuickFileDto } from '@kefu/protocol';
import { quickFileApi } from '../api';
import { upload } from '../../dialogue/api';
import { useCan } from '../../access/components/useCan';

interface Props {
  disabled: boolean;
  onSend: (m: { msgtype: MsgType; message?: string; attachmentid?: string; filename?: string }) => void;
}

/** The composer's quick files: the agent's and the public ones, sent in one click; upload to add one. */
export function QuickFilesButton({ disabled, onSend }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const can = useCan();
  const files = useQuery({
    queryKey: ['quick-files'],
    queryFn: ({ signal }) => quickFileApi.list(signal),
    enabled: open,
  });
  const send = async (id: string) => {
    const r = await quickFileApi.send(id);
    onSend({ msgtype: r.msgtype, attachmentid: r.attachmentid, message: r.filename, filename: r.filename });
    setOpen(false);
  };
  // Public files are the tenant's: only holders of the canned-reply setup code reorder or remove them.
  const mine = (f: QuickFileDto) => f.scope === 'pri' || can(QUICK_FILE_PUBLIC_CODE);
  const remove = async (f: QuickFileDto) => {
    await quickFileApi.remove(f.id);
    void files.refetch();
  };
  const toTop = async (f: QuickFileDto) => {
    await quickFileApi.rank(f.scope, [f.id]);
    void files.refetch();
  };
  const add = async (f: File) => {
    setBusy(true);
    try {
      await quickFileApi.save((await upload('file', f)).id);
      void files.refetch();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      title={
        <Space style={{ justifyContent: 'space-between', width: '100%' }}>
          {t('qf.title')}
          <Upload
            showUploadList={false}
            beforeUpload={(f) => {
              void add(f).catch(() => undefined);
              return false;
            }}
          >
            <Button size="small" icon={<UploadOutlined />} loading={busy} data-testid="quickfile-upload">
              {t('qf.upload')}
            </Button>
          </Upload>
        </Space>
      }
      content={
        <div style={{ width: 380, maxHeight: 320, overflow: 'auto' }} data-testid="quickfile-panel">
          {files.data?.length ? (
            <List
              size="small"
              dataSource={files.data}
              renderItem={(f) => (
                <List.Item>
                  <div style={{ display: 'flex', alignItems: 'center', gap: 4, minWidth: 0, width: '100%' }}>
                    <Tag style={{ flex: 'none' }}>{t(`qf.scope.${f.scope}`)}</Tag>
                    <span
                      title={f.name}
                      style={{
                        flex: 1,
                        minWidth: 0,
                        overflow: 'hidden',
                        textOverflow: 'ellipsis',
                        whiteSpace: 'nowrap',
                      }}
                    >
                      {f.name}
                    </span>
                    <span style={{ flex: 'none', opacity: 0.6, marginRight: 4 }}>
                      {formatFileSize(f.filesize)}
                    </span>
                    {[
                      <Button
                        key="send"
                        type="link"
                        size="small"
                        onClick={() => void send(f.id)}
                        data-testid={`quickfile-send-${f.name}`}
                      >
                        {t('qf.send')}
                      </Button>,
                      ...(mine(f)
                        ? [
                            <Tooltip key="top" title={t('qf.top')}>
                              <Button
                                type="text"
                                size="small"
                                icon={<VerticalAlignTopOutlined />}
                                aria-label={t('qf.top')}
                                onClick={() => void toTop(f).catch(() => undefined)}
                                data-testid={`quickfile-top-${f.name}`}
                              />
                            </Tooltip>,
                            <Popconfirm
                              key="delete"
                              title={t('common.deleteConfirm', { name: f.name })}
                              onConfirm={() => remove(f).catch(() => undefined)}
                            >
                              <Button
                                type="text"
                                size="small"
                                danger
                                icon={<DeleteOutlined />}
                                aria-label={t('common.delete')}
                                data-testid={`quickfile-delete-${f.name}`}
                              />
                            </Popconfirm>,
                          ]
                        : []),
                    ]}
                  </div>
                </List.Item>
              )}
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('qf.empty')} />
          )}
        </div>
      }
    >
      <Tooltip title={t('qf.title')}>
        <Button
          type="text"
          icon={<FolderOpenOutlined />}
          aria-label={t('qf.title')}
          disabled={disabled}
          data-testid="quickfile-btn"
        />
      </Tooltip>
    </Popover>
  );
}
