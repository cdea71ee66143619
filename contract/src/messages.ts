/** The product's user-facing texts (docs/product.md#validation, #errors), kept verbatim in one place. */
export const MSG = {
  enterPassword: '请输入密码',
  enterNewPassword: '请输入新密码',
  passwordLength: '密码长度为6 - 18个字符',
  passwordMismatch: '两次输入密码不一致!',
  enterConfirm: '请输入确认密码',
  enterAgain: '请再次输入密码',
  usernameRequired: '请输入用户名',
  formIncomplete: '请完善信息！',
  actCodeRequired: '请填写激活码',
  ownerKeywordRequired: '请输入手机号码或业主姓名',
  errorTitle: '错误',
  successTitle: '成功',
  deleteConfirm: '此操作将永久删除该数据, 是否继续?',
  deleteCancelled: '已取消删除',
  amountEmpty: '输入不能为空',
  amountDigits: '只能输入阿拉伯数字',
  logoutTitle: '确定登出',
  logoutText: '你已被登出，可以取消继续留在该页面，或者重新登录',
  relogin: '重新登录',
  cancel: '取消',
  hasError: 'Has Error',
  fullscreenUnsupported: 'you browser can not work',
  verificationFailed: 'Verification failed, please Login again.',
  rolesMustBeArray: 'getInfo: roles must be a non-null array!',
  needRoles: "need roles! Like v-permission=\"['admin','editor']\"",
  unknownMethod: '未知的操作',
  badJson: '请求格式错误：不是合法的 JSON',
  saved: '操作成功',
} as const;

/** Messages that are shown exactly as written, never prefixed with a field name. */
export const VERBATIM: ReadonlySet<string> = new Set(Object.values(MSG));
