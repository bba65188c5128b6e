import LinkdCLI

LinkdCLI.main()
