import { AppChannelScreen } from '../components/AppChannelScreen';

/** /setup/officialAccount (A09_A01_A02): official accounts. */
export default function OfficialAccountScreen() {
  return <AppChannelScreen channel="weixin" />;
}
