"""kernelscope's Qt user interface. It calls kernelscope.core and never parses files itself."""
