import { Space, Tooltip } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Figure } from '@kefu/protocol';

/** A figure's name with its definition (docs/metrics.md) in a tooltip. */
export function FigureTitle({ fig }: { fig: Figure }) {
  const { t } = useTranslation();
  return (
    <Space size={4}>
      <span>{t(`analysis.fig.${fig}`)}</span>
      <Tooltip title={t(`analysis.def.${fig}`)}>
        <QuestionCircleOutlined style={{ color: '#999' }} data-testid={`analysis-def-${fig}`} />
      </Tooltip>
    </Space>
  );
}
