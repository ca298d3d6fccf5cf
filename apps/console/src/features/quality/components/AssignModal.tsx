import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { QualityAllotResultDto } from '@kefu/protocol';
import { FormModal } from '../../../components/FormModal';
import { notify } from '../../../lib/notify';
import { InspectorsItem } from './filters';

/** Picks inspectors for the selected conversations (allot/manual) or inspections (…/again). */
export function AssignModal(props: {
  open: boolean;
  count: number;
  again?: boolean;
  onCancel: () => void;
  assign: (inspectors: string[]) => Promise<QualityAllotResultDto>;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  return (
    <FormModal<{ inspectors: string[] }>
      open={props.open}
      title={props.again ? t('qc.allot.again') : t('qc.allot.manual')}
      testId="qc-assign"
      onCancel={props.onCancel}
      onSubmit={async (v) => {
        const res = await props.assign(v.inspectors);
        notify.success(t('qc.allot.result', { n: res.allotted, skipped: res.skipped }));
        props.onDone();
      }}
    >
      <Typography.Paragraph>{t('qc.allot.selected', { n: props.count })}</Typography.Paragraph>
      <InspectorsItem testId="qc-assign-inspectors" enabled={props.open} />
    </FormModal>
  );
}
