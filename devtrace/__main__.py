from devtrace.cli.entry import main

main()
