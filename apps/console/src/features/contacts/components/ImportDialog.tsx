import { useState } from 'react';
import { Alert, Modal, Table, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CONTACT_SHEET_HEADERS, type ContactSheetColumn } from '@kefu/protocol';
import { contactsApi } from '../api';
import { RequestError } from '../../../lib/request';

interface RowError {
  key: string;
  row: number;
  field: string;
  error: string;
}

type Outcome =
  { done: { created: number; updated: number } } | { rows: RowError[] } | { failed: string } | null;

/**
 * Upload an .xlsx of contacts. The server imports all rows or none; when it refuses, its `fields`
 * ("<row>.<column>" → error key) are listed here so the user can fix the sheet and upload again.
 */
export function ImportDialog(props: { open: boolean; onClose: () => void; onImported: () => void }) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const lang = i18n.language.startsWith('en') ? 'en' : 'zh';
  const column = (f: string) =>
    f === '_' ? t('card.importWholeRow') : (CONTACT_SHEET_HEADERS[lang][f as ContactSheetColumn] ?? f);
  const errorText = (k: string) => (i18n.exists(`error.${k}`) ? t(`error.${k}`) : k);

  const upload = async (file: File) => {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ done: await contactsApi.import(file) });
      props.onImported();
    } catch (e) {
      if (e instanceof RequestError && e.key === 'import_rows_invalid' && e.fields) {
        const rows = Object.entries(e.fields).map(([path, key]) => {
          const dot = path.indexOf('.');
          return {
            key: path,
            row: Number(path.slice(0, dot)),
            field: column(path.slice(dot + 1)),
            error: errorText(key),
          };
        });
        setOutcome({ rows: rows.sort((a, b) => a.row - b.row) });
      } else setOutcome({ failed: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={props.open}
      title={t('card.importTitle')}
      footer={null}
      width={640}
      onCancel={() => {
        setOutcome(null);
        props.onClose();
      }}
    >
      <div data-testid="contact-import">
        <Typography.Paragraph type="secondary">{t('card.importHint')}</Typography.Paragraph>
        <Upload.Dragger
          accept=".xlsx"
          multiple={false}
          showUploadList={false}
          disabled={busy}
          beforeUpload={(file) => {
            void upload(file);
            return false;
          }}
          data-testid="contact-import-file"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('card.importDrop')}</p>
        </Upload.Dragger>
        {outcome && 'done' in outcome && (
          <Alert
            style={{ marginTop: 16 }}
            type="success"
            showIcon
            data-testid="contact-import-done"
            message={t('card.importDone', outcome.done)}
          />
        )}
        {outcome && 'failed' in outcome && (
          <Alert
            style={{ marginTop: 16 }}
            type="error"
            showIcon
            message={outcome.failed}
            data-testid="contact-import-failed"
          />
        )}
        {outcome && 'rows' in outcome && (
          <>
            <Alert
              style={{ marginTop: 16, marginBottom: 8 }}
              type="error"
              showIcon
              message={t('card.importErrors')}
            />
            <Table<RowError>
              size="small"
              rowKey="key"
              pagination={outcome.rows.length > 10 ? { pageSize: 10 } : false}
              dataSource={outcome.rows}
              data-testid="contact-import-errors"
              columns={[
                { title: t('card.importRow'), dataIndex: 'row', width: 80 },
                { title: t('card.importField'), dataIndex: 'field', width: 140 },
                { title: t('card.importError'), dataIndex: 'error' },
              ]}
            />
          </>
        )}
      </div>
    </Modal>
  );
}
