import LinkdCLI

await LinkdCLI.main()
