from devtrace.cli.app import main

main()
