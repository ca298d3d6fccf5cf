import { useState, type ReactNode } from 'react';
import { Alert, Modal, Table, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { RequestError } from '../lib/request';

interface RowError {
  key: string;
  row: number;
  field: string;
  error: string;
}

type Outcome<R> = { done: R } | { rows: RowError[] } | { failed: string } | null;

/**
 * Upload an .xlsx for an all-or-nothing import. When the server refuses the sheet (import_rows_invalid),
 * its `fields` ("<row>.<column>" → error key) are listed so the user can fix the sheet and upload again.
 * The screen states its own: the call, the column names and the texts. Test ids: `{testId}`,
 * `{testId}-file`, `-done`, `-failed`, `-errors`.
 */
export function ImportDialog<R>(props: {
  open: boolean;
  title: ReactNode;
  hint: ReactNode;
  upload: (file: File) => Promise<R>;
  doneText: (r: R) => string;
  /** The column a `fields` entry names, as the user knows it. */
  columnName: (field: string) => string;
  onClose: () => void;
  onImported: () => void;
  testId: string;
  /** Under the hint, e.g. the template download. */
  extra?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome<R>>(null);
  const column = (f: string) => (f === '_' ? t('common.importWholeRow') : props.columnName(f));
  const errorText = (k: string) => (i18n.exists(`error.${k}`) ? t(`error.${k}`) : k);
  const id = props.testId;

  const upload = async (file: File) => {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ done: await props.upload(file) });
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
      title={props.title}
      footer={null}
      width={640}
      onCancel={() => {
        setOutcome(null);
        props.onClose();
      }}
    >
      <div data-testid={id}>
        <Typography.Paragraph type="secondary">{props.hint}</Typography.Paragraph>
        {props.extra}
        <Upload.Dragger
          accept=".xlsx"
          multiple={false}
          showUploadList={false}
          disabled={busy}
          beforeUpload={(file) => {
            void upload(file);
            return false;
          }}
          data-testid={`${id}-file`}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('common.importDrop')}</p>
        </Upload.Dragger>
        {outcome && 'done' in outcome && (
          <Alert
            style={{ marginTop: 16 }}
            type="success"
            showIcon
            data-testid={`${id}-done`}
            message={props.doneText(outcome.done)}
          />
        )}
        {outcome && 'failed' in outcome && (
          <Alert
            style={{ marginTop: 16 }}
            type="error"
            showIcon
            message={outcome.failed}
            data-testid={`${id}-failed`}
          />
        )}
        {outcome && 'rows' in outcome && (
          <>
            <Alert
              style={{ marginTop: 16, marginBottom: 8 }}
              type="error"
              showIcon
              message={t('common.importErrors')}
            />
            <Table<RowError>
              size="small"
              rowKey="key"
              pagination={outcome.rows.length > 10 ? { pageSize: 10 } : false}
              dataSource={outcome.rows}
              data-testid={`${id}-errors`}
              columns={[
                { title: t('common.importRow'), dataIndex: 'row', width: 80 },
                { title: t('common.importField'), dataIndex: 'field', width: 140 },
                { title: t('common.importError'), dataIndex: 'error' },
              ]}
            />
          </>
        )}
      </div>
    </Modal>
  );
}
