import RxMarblesKit

RxMarblesCommand.main()
