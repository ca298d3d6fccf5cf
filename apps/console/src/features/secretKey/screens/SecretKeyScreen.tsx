import { Space } from 'antd';
import { SecretCard } from '../components/SecretCard';
import { WebhookCard } from '../components/WebhookCard';

/** /setup/secretKey (A09_A06_A02): the API secret and the webhooks signed with it. */
export default function SecretKeyScreen() {
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="secretkey-screen">
      <SecretCard />
      <WebhookCard />
    </Space>
  );
}
