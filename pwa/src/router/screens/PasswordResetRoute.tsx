// /password/reset?token=: the e-mailed reset link; without a token, the form that asks for the address.
import { ForgotPasswordScreen, ResetPasswordScreen } from "../../screens/password/PasswordResetScreens";
import { passwordResetRoute as route } from "../authRoutes";

export function PasswordResetRoute() {
  const { token } = route.useSearch();
  return token ? <ResetPasswordScreen token={token} /> : <ForgotPasswordScreen />;
}
