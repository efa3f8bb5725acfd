let viewModel = SignInViewModel(signInAPI: SignInAPIFake(), disposeBag: DisposeBag())
viewModel.configure(emailText: email.asObservable(), passwordText: password.asObservable(), signInButtonTap: signInTap.asObservable())
return viewModel.signInButtonEnabled
